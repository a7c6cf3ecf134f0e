-- The start-up migration's lock, which names the node holding it by a random token. A node
-- renews the lock, or lets it go, only while the lock still names it: a node that stalled past
-- the lock's life finds it taken over by another node (or gone), and leaves it to that node.
--   KEYS[1] the lock   KEYS[2] the format the store is in
--   ARGV[1] the node's token   ARGV[2] `renew` or `done`
--   ARGV[3] for `renew`, the lock's life in seconds; for `done`, the format the node brought the
--   store to, recorded whoever holds the lock (the node finished every step)
-- Answers 1 when the lock named the node, else 0.
local held = redis.call('GET', KEYS[1]) == ARGV[1]
if ARGV[2] == 'renew' then
  if held then
    redis.call('EXPIRE', KEYS[1], ARGV[3])
  end
else
  redis.call('SET', KEYS[2], ARGV[3])
  if held then
    redis.call('DEL', KEYS[1])
  end
end
return held and 1 or 0
