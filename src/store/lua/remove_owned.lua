-- Deletes every record filed under an owner, and the owner's index; answers how many of them
-- were live.
--   KEYS[1] the owner's index (a set of full record keys)
local ended = 0
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  ended = ended + redis.call('DEL', key)
end
redis.call('DEL', KEYS[1])
return ended
