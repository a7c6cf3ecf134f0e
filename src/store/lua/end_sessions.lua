-- Ends every SSO session of a user; answers how many were live, and the public ids (`sid`) of
-- those that had one.
--   KEYS[1] the user's session index
--   ARGV[1] the user's sub
-- A session id is written again only for the same user, but a member whose record now names
-- someone else is left alone all the same: only the user's own sessions end.
local ended, sids = 0, {}
for _, key in ipairs(take_index(KEYS[1])) do
  local value = redis.call('GET', key)
  if value then
    local ok, session = pcall(cjson.decode, value)
    if ok and type(session) == 'table' and type(session.claims) == 'table'
        and session.claims.sub == ARGV[1] then
      if redis.call('DEL', key) == 1 then
        ended = ended + 1
        if type(session.sid) == 'string' then
          sids[#sids + 1] = session.sid
        end
      end
    end
  end
end
return {ended, sids}
