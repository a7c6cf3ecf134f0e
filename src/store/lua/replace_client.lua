-- Writes a change to a client only over the revision it was made from.
--   KEYS[1] the clients hash   ARGV[1] client id   ARGV[2] the change's revision
--   ARGV[3] the client JSON
-- Answers {2, ''} written, {1, current JSON} the stored revision is another, {0, ''} no such
-- client.
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then
  return {0, ''}
end
local ok, record = pcall(cjson.decode, current)
local stored = 0
if ok and type(record) == 'table' and type(record.revision) == 'number' then
  stored = record.revision
end
if stored + 1 ~= ARGV[2] + 0 then
  return {1, current}
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return {2, ''}
