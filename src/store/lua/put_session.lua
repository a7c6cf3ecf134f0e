-- Stores an SSO session and indexes it under its user.
--   KEYS[1] the session   KEYS[2] the user's session index   ARGV[1] session JSON   ARGV[2] TTL
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
index(KEYS[2], KEYS[1], ARGV[2] + 0, server_now())
return 1
