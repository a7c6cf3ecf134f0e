-- Stores a fresh code (see `put_code` in code.lua).
--   KEYS[1] the code   KEYS[2] the client's index   KEYS[3] the user's index
--   KEYS[4] (optional) the session's index
--   ARGV[1] code JSON   ARGV[2] TTL   ARGV[3] the client id
put_code(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3])
return 1
