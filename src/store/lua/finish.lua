-- Ends a pending authorize request, takes it out of its groups and out of the load of every
-- pending request; answers 1 if it was live, else 0.
--   request: its key   groups: the keys of its groups   load: the load (see put_pending.lua)
--   minute: the minute its record is filed under in the load, or '' for a record written
--   before the load was kept
local function finish(request, groups, load, minute)
  local size = redis.call('STRLEN', request)
  for _, group in ipairs(groups) do
    redis.call('ZREM', group, request)
  end
  local deleted = redis.call('DEL', request)
  -- A load that expired meanwhile is not brought back with negative counts.
  if deleted == 1 and minute ~= '' and redis.call('EXISTS', load) == 1 then
    redis.call('HINCRBY', load, 'n' .. minute, -1)
    redis.call('HINCRBY', load, 'b' .. minute, -size)
  end
  return deleted
end
