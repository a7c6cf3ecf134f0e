-- Revokes every code and grant of a client.
--   KEYS[1] the client's index
--   ARGV[1] prefix of every grant index key
local members = take_index(KEYS[1])
for _, key in ipairs(members) do
  if string.sub(key, 1, #ARGV[1]) == ARGV[1] then
    revoke(key)
  else
    redis.call('DEL', key)
  end
end
return #members
