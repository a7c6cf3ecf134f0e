-- Removes every passkey of a person and their owner keys.
--   KEYS[1] the person's passkeys   ARGV[1] the owner keys' prefix   ARGV[2] the person
-- Answers how many passkeys there were.
local ids = redis.call('HKEYS', KEYS[1])
for _, id in ipairs(ids) do
  local owner = ARGV[1] .. id
  if redis.call('GET', owner) == ARGV[2] then
    redis.call('DEL', owner)
  end
end
redis.call('DEL', KEYS[1])
return #ids
