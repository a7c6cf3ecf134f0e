-- Answers the sessions a user's index names that are still kept: pairs of full key and session
-- JSON. Whose they are is for the caller to check.
--   KEYS[1] the user's session index
local found = {}
for _, key in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local value = redis.call('GET', key)
  if value then
    found[#found + 1] = {key, value}
  end
end
return found
