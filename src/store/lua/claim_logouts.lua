-- Claims the back-channel logouts that are due, earliest first: each claimed job is due again
-- only after its lease, so no other node claims it meanwhile.
--   KEYS[1] the queue (sorted set: job id by when it is due)
--   ARGV[1] now   ARGV[2] lease seconds   ARGV[3] most jobs to claim   ARGV[4] prefix of job keys
-- Answers the claimed jobs' JSON. A job whose record is gone (forgotten after its lifetime) is
-- taken out of the queue.
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
local claimed = {}
local until_ = ARGV[1] + ARGV[2]
for _, id in ipairs(ids) do
  local job = redis.call('GET', ARGV[4] .. id)
  if job then
    redis.call('ZADD', KEYS[1], string.format('%d', until_), id)
    claimed[#claimed + 1] = job
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return claimed
