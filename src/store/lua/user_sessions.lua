-- Answers the sessions a user's index names that are still kept: pairs of full key and session
-- JSON. Whose they are is for the caller to check.
--   KEYS[1] the user's session index   KEYS[2] the user's session index of earlier versions
local keys = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, key in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  keys[#keys + 1] = key
end
local found = {}
for _, key in ipairs(keys) do
  local value = redis.call('GET', key)
  if value then
    found[#found + 1] = {key, value}
  end
end
return found
