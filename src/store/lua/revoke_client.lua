-- Revokes every code and grant of a client.
--   KEYS[1] the client's index   KEYS[2] the client's index of earlier versions
--   ARGV[1] prefix of every grant index key
local members = take_index(KEYS[1], KEYS[2])
for _, key in ipairs(members) do
  if string.sub(key, 1, #ARGV[1]) == ARGV[1] then
    revoke(key)
  else
    redis.call('DEL', key)
  end
end
return #members
