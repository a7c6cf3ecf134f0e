-- Revokes what an SSO session gave: every token of the grants begun in it, and its codes not
-- yet redeemed; forgets the session's index. Answers the client ids of the grants, each once.
--   KEYS[1] the session's index (hash: `g<grant id>` -> client id, `c<code key>` -> client id)
--   ARGV[1] prefix of every grant index key
local entries = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
local apps, seen = {}, {}
for i = 1, #entries, 2 do
  local entry, client = entries[i], entries[i + 1]
  local kind, name = string.sub(entry, 1, 1), string.sub(entry, 2)
  if kind == 'g' then
    revoke(ARGV[1] .. name)
    if not seen[client] then
      seen[client] = true
      apps[#apps + 1] = client
    end
  elseif kind == 'c' then
    redis.call('DEL', name)
  end
end
return apps
