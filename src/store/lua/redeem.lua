-- Redeems an authorization code (KEYS[1], a hash {data, consumed_by}).
-- Returns {'not_found'}, {'replayed'}, {'app_disabled'} or {'issued'}.
-- A code is `data` alone until it is consumed, then `data` and `consumed_by`: how many fields
-- it has says which, in one call.
local fields = redis.call('HLEN', KEYS[1])
if fields == 0 then
  return {'not_found'}
end
local consumed_by = fields > 1 and redis.call('HGET', KEYS[1], 'consumed_by')
if consumed_by then
  -- RFC 6749 §4.1.2: a code used twice revokes what its first use issued.
  revoke(ARGV[6] .. consumed_by)
  return {'replayed'}
end
if not allowed(0, ARGV[#ARGV]) then
  return {'app_disabled'}
end
-- Writing a hash field leaves the key's TTL alone: the code stays, consumed, until it expires.
redis.call('HSET', KEYS[1], 'consumed_by', ARGV[1])
issue(nil, 0, 0, KEYS[8], ARGV[#ARGV])
-- A consumed code issues nothing more (its replay only revokes what it issued), so the app's
-- and the user's indexes, which revocation walks, need it no longer: they keep to the codes
-- still waiting, however many a busy app redeems a minute.
redis.call('ZREM', KEYS[5], KEYS[1])
redis.call('ZREM', KEYS[6], KEYS[1])
if KEYS[8] then
  redis.call('HDEL', KEYS[8], 'c' .. KEYS[1])
end
return {'issued'}
