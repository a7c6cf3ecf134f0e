-- Ends a pending authorize request, takes it out of its groups and out of the load of every
-- pending request; answers 1 if it was live.
--   KEYS[1] the request   KEYS[2..n+1] its groups   KEYS[n+2] the load (see put_pending.lua)
--   ARGV[1] the minute its record is filed under in the load, or '' for a record written
--   before the load was kept
local size = redis.call('STRLEN', KEYS[1])
for i = 2, #KEYS - 1 do
  redis.call('ZREM', KEYS[i], KEYS[1])
end
local deleted = redis.call('DEL', KEYS[1])
local load = KEYS[#KEYS]
-- A load that expired meanwhile is not brought back with negative counts.
if deleted == 1 and ARGV[1] ~= '' and redis.call('EXISTS', load) == 1 then
  redis.call('HINCRBY', load, 'n' .. ARGV[1], -1)
  redis.call('HINCRBY', load, 'b' .. ARGV[1], -size)
end
return deleted
