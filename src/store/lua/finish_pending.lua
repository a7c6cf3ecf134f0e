-- Ends a pending authorize request and takes it out of its groups; answers 1 if it was live.
--   KEYS[1] the request   KEYS[2..] its groups
for i = 2, #KEYS do
  redis.call('ZREM', KEYS[i], KEYS[1])
end
return redis.call('DEL', KEYS[1])
