-- Removes a person's passkey and its owner key; another person's passkey is not touched.
--   KEYS[1] the person's passkeys   KEYS[2] the id's owner key   ARGV[1] credential id
--   ARGV[2] the person
-- Answers 1 removed, 0 the person has no such passkey.
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('GET', KEYS[2]) == ARGV[2] then
  redis.call('DEL', KEYS[2])
end
return 1
