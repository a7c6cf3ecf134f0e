-- Ends the pending authorize request a code answers and, only if it was still live, stores the
-- code: at most one of concurrent callers stores one. Answers 1 if it did, else 0.
--   KEYS[1] the request   KEYS[2] the load (finish.lua)
--   KEYS[3] the code   KEYS[4] the client's index   KEYS[5] the user's index (code.lua)
--   KEYS[6] the session's index when ARGV[5] is '1'; the request's groups after it
--   ARGV[1] code JSON   ARGV[2] TTL   ARGV[3] the client id (code.lua)
--   ARGV[4] the minute the request is filed under in the load, or '' (finish.lua)
--   ARGV[5] '1' when the code names an SSO session, else '0'
local session, first_group = nil, 6
if ARGV[5] == '1' then
  session, first_group = KEYS[6], 7
end
if finish(KEYS[1], { unpack(KEYS, first_group, #KEYS) }, KEYS[2], ARGV[4]) == 0 then
  return 0
end
put_code(KEYS[3], KEYS[4], KEYS[5], session, ARGV[1], ARGV[2], ARGV[3])
return 1
