-- Writes a change to a person's passkey only if they still have it.
--   KEYS[1] the person's passkeys   ARGV[1] credential id   ARGV[2] the passkey JSON
-- Answers 1 written, 0 no such passkey.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
