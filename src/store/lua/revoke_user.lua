-- Revokes every code and grant of a user, for every app; answers how many grants were live.
--   KEYS[1] the user's index
--   ARGV[1] prefix of every grant index key
local revoked = 0
for _, key in ipairs(take_index(KEYS[1])) do
  if string.sub(key, 1, #ARGV[1]) == ARGV[1] then
    revoked = revoked + revoke(key)
  else
    redis.call('DEL', key)
  end
end
return revoked
