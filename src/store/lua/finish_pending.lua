-- Ends a pending authorize request (see `finish` in finish.lua).
--   KEYS[1] the request   KEYS[2..n+1] its groups   KEYS[n+2] the load
--   ARGV[1] the minute its record is filed under in the load, or ''
return finish(KEYS[1], { unpack(KEYS, 2, #KEYS - 1) }, KEYS[#KEYS], ARGV[1])
