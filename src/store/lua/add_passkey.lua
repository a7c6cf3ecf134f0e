-- Adds a passkey unless its credential id is anyone's already or the person has as many as
-- they may.
--   KEYS[1] the person's passkeys (hash: credential id -> JSON)   KEYS[2] the id's owner key
--   ARGV[1] credential id   ARGV[2] the passkey JSON   ARGV[3] the person   ARGV[4] most passkeys
-- Answers 2 added, 1 the id is taken, 0 the person has as many as they may.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 1
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3])
return 2
