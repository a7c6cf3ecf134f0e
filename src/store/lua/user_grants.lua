-- Answers the live grants of a user, each with the newest of its refresh tokens still kept:
-- pairs of grant id and refresh token JSON.
--   KEYS[1] the user's index
--   ARGV[1] prefix of every grant index key   ARGV[2] prefix of every refresh token key
local found = {}
for _, key in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(key, 1, #ARGV[1]) == ARGV[1] then
    -- In the order they were issued: the newest refresh token comes last.
    local tokens = redis.call('LRANGE', key, 0, -1)
    for i = #tokens, 1, -1 do
      local token = tokens[i]
      if string.sub(token, 1, #ARGV[2]) == ARGV[2] then
        local data = redis.call('HGET', token, 'data')
        if data then
          found[#found + 1] = {string.sub(key, #ARGV[1] + 1), data}
          break
        end
      end
    end
  end
end
return found
