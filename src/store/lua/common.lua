-- Shared by the scripts below; prepended to each of them before loading.
--
-- Key and argument layout common to redeem.lua and rotate.lua:
--   KEYS[1] the code or refresh token being spent
--   KEYS[2] the new access token     KEYS[3] the new refresh token
--   KEYS[4] the index of the issuance's grant
--   KEYS[5] the index of everything issued to the client (codes and grant indexes)
--   KEYS[6] the index of everything issued to the user (codes and grant indexes)
--   KEYS[7] the registered apps (hash: client id -> client JSON)
--   KEYS[8] (optional) the index of the SSO session the grant came from (hash: `g<grant id>`
--           -> client id, `c<code key>` -> client id)
--   ARGV[1] grant id   ARGV[2] access JSON   ARGV[3] access TTL
--   ARGV[4] refresh JSON   ARGV[5] refresh TTL   ARGV[6] prefix of every grant index key
--   ARGV[#ARGV] the client id of the issuance
-- A script may carry several issuances, each with this layout at an offset (rotate.lua says
-- how it finds them): `issue` and `allowed` take the offsets of its keys and arguments, and
-- `issue` its session's index (nil without one) and its client id, which a lone issuance
-- finds at KEYS[8] and ARGV[#ARGV].

-- Deletes every token named by a grant's index, then the index; answers 1 if the index was
-- still there (the grant was live), else 0. A refresh token names the access token issued with
-- it (its `access` field, see `issue`), which goes with it; any other member is a token itself.
local function revoke(index)
  for _, key in ipairs(redis.call('LRANGE', index, 0, -1)) do
    -- An access token member is a string: HGET refuses it, and nothing is linked from it.
    local access = redis.pcall('HGET', key, 'access')
    if type(access) == 'string' then
      redis.call('DEL', access)
    end
    redis.call('DEL', key)
  end
  return redis.call('DEL', index)
end

-- The microseconds of the server's clock when the script read it, as a coin to toss; 0
-- before it has (then `index` always drops what has expired).
local micros = 0
local seconds = nil

-- The server's clock, in seconds: the one that expires keys. Also answers the microseconds.
-- Read once per script: the issuances of one call are written at one moment.
-- (`x + 0` reads a number once; `tonumber` reads it twice, and every conversion between text
-- and numbers is a good part of what these scripts cost Redis.)
local function server_now()
  if not seconds then
    local time = redis.call('TIME')
    seconds, micros = time[1] + 0, time[2] + 0
  end
  return seconds, micros
end

-- A whole number of seconds as Redis stores it, or text read back from Redis as it is: `%d`
-- costs far less than the `%.17g` Redis would write a Lua number with.
local function text(seconds)
  if type(seconds) == 'string' then
    return seconds
  end
  return string.format('%d', seconds)
end

-- `keep` seconds and an eighth more: how far ahead a lifetime or an index entry is set, so that
-- the writes of the next while find it long enough and leave it be.
local function ahead(keep)
  return keep + math.floor(keep / 8)
end

-- Makes `key` live at least `keep` more seconds, never shortening it. It is lengthened
-- `ahead`: one call instead of two on most writes. Answers until when (`now`, the server's
-- clock, plus seconds) the key lives.
local function lengthen(key, keep, now)
  local ttl = redis.call('TTL', key)
  if ttl < keep then
    ttl = ahead(keep)
    redis.call('EXPIRE', key, text(ttl))
  end
  return (now or 0) + ttl
end

-- Adds `member` (a key) to the index `key`, a sorted set scored by when the member expires
-- (`now`, the server's clock, plus `keep` seconds; a later expiry already there is kept).
-- Members past their expiry are dropped on the way, on one write in eight (by the clock's
-- microseconds), so the index of a busy app stays about as large as what is live in it, at
-- O(log n) per write, and the other writes skip a command. A member left a while past its
-- expiry costs a revocation one delete of a key already gone. The index lives at least `keep`
-- seconds and is never shortened.
local function index(key, member, keep, now)
  if micros % 8 == 0 then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', text(now))
  end
  redis.call('ZADD', key, 'GT', text(now + keep), member)
  lengthen(key, keep)
end

-- `index` for a member most likely there already (a grant, refreshed): its score is left alone
-- while it still covers `keep` more seconds, and set an eighth further ahead when it does not,
-- so a grant refreshed every few minutes costs one lookup per index instead of three writes.
-- The key lives at least as long as any score in it (`index` lengthens it as far), so a member
-- left alone is never outlived by what it names. Answers the member's score now.
local function reindex(key, member, keep, now)
  local until_ = tonumber(redis.call('ZSCORE', key, member))
  if until_ and until_ >= now + keep then
    return until_
  end
  index(key, member, ahead(keep), now)
  return math.max(until_ or 0, now + ahead(keep))
end

-- Every member of the index `key`, which is deleted.
local function take_index(key)
  local members = redis.call('ZRANGE', key, 0, -1)
  redis.call('DEL', key)
  return members
end

-- Whether the app `client` (the issuance's: KEYS[k + 7], the registered apps) is registered
-- and enabled. Checked in the same atomic step as the write: an app disabled a moment before
-- gets nothing, and one disabled a moment after finds the tokens in its index when its
-- revocation runs. Read once per app and script.
local enabled = {}
local function allowed(k, client)
  if enabled[client] == nil then
    enabled[client] = false
    local json = redis.call('HGET', KEYS[k + 7], client)
    if json then
      -- The record is compact JSON with no nested `enabled`, and a quote inside a string is
      -- escaped, so either text can only be the app's own flag: a plain search instead of
      -- decoding the whole record on every issuance. Anything else is decoded.
      if string.find(json, '"enabled":true', 1, true) then
        enabled[client] = true
      elseif not string.find(json, '"enabled":false', 1, true) then
        local ok, app = pcall(cjson.decode, json)
        enabled[client] = ok and type(app) == 'table' and app.enabled == true
      end
    end
  end
  return enabled[client]
end

-- How often, at most, a grant refreshed again and again drops its expired tokens from its index
-- (seconds): a grant refreshed every few minutes drops them on every rotation.
local PRUNE_EVERY = 60

-- How many expired tokens, at most, one rotation drops from the head of its grant's index: a
-- grant refreshed again after a long pause drops the rest at its next rotations, each step
-- bounded.
local PRUNE_BATCH = 200

-- How many of the index's head tokens one read takes: most prunes find a live token among the
-- first few, and a read of the whole batch would copy 200 keys into Lua for nothing.
local PRUNE_READ = 16

-- Drops the tokens at the head of the grant index `key` that have expired: the oldest first,
-- up to the first still live (EXISTS reads a key past its TTL as gone).
local function prune(key)
  local gone = 0
  while gone < PRUNE_BATCH do
    local want = math.min(PRUNE_READ, PRUNE_BATCH - gone)
    local heads = redis.call('LRANGE', key, gone, gone + want - 1)
    local live = false
    for _, member in ipairs(heads) do
      if redis.call('EXISTS', member) == 1 then
        live = true
        break
      end
      gone = gone + 1
    end
    if live or #heads < want then
      break
    end
  end
  if gone > 0 then
    redis.call('LTRIM', key, gone, -1)
  end
end

-- Writes the access and refresh tokens of the issuance in KEYS/ARGV at offsets `k` and `a`, and
-- indexes both under their grant, and the grant under its client, its user and its session
-- (`session`, the key of its index, or nil; `client` names the app there). The grant's index is a
-- list of its refresh tokens in the order they were issued, each naming the access token issued
-- with it (`access`), which it outlives; an access token that may outlive its refresh token is
-- listed itself, before it. The list is an append, where a sorted set by expiry cost Redis a
-- dictionary and a skip list entry per token, and its head is the oldest, so it drops what has
-- expired as the grant is refreshed: a grant refreshed for months keeps an index of what is
-- still live. It lives at least as long as the longest token written to it and is never
-- shortened, so revoking a grant always finds every live token of the family.
--
-- `marks`: nil for a grant just begun; for a refresh, what the spent token recorded of its
-- grant, each a time on the server's clock as the text it was stored as, or nil where it
-- recorded nothing (a token an earlier version wrote):
--   listed  until when the grant's entries under its client, its user and its session last
--   kept    until when the grant's index lives
--   pruned  when the index last dropped its expired tokens
-- The new refresh token records them in turn, so a grant refreshed often looks up its entries
-- and its index's lifetime only when they are about to fall short, and drops expired tokens at
-- most every PRUNE_EVERY seconds, instead of on every rotation. Entries and lifetimes only
-- ever move later while the grant lives, and revoking the grant, its client or its user
-- deletes its tokens with them, so what a live token records still holds. A mark that still
-- holds is written back as the text it was read as.
local function issue(marks, k, a, session, client)
  local access_ttl, refresh_ttl = ARGV[a + 3] + 0, ARGV[a + 5] + 0
  local keep = math.max(access_ttl, refresh_ttl)
  redis.call('SET', KEYS[k + 2], ARGV[a + 2], 'EX', ARGV[a + 3])
  local now = server_now()
  if access_ttl > refresh_ttl then
    redis.call('RPUSH', KEYS[k + 4], KEYS[k + 2], KEYS[k + 3])
  else
    redis.call('RPUSH', KEYS[k + 4], KEYS[k + 3])
  end
  local listed, kept, pruned
  -- Whether the grant's entries were written or moved ahead now.
  local relisted = not marks
  if not marks then
    -- The grant's id is new, so is its index: nothing to drop, and no lifetime yet.
    pruned, kept = now, now + ahead(keep)
    redis.call('EXPIRE', KEYS[k + 4], text(kept - now))
    index(KEYS[k + 5], KEYS[k + 4], keep, now)
    index(KEYS[k + 6], KEYS[k + 4], keep, now)
    listed = now + keep
  else
    if marks.pruned and now - marks.pruned < PRUNE_EVERY then
      pruned = marks.pruned
    else
      prune(KEYS[k + 4])
    end
    kept = marks.kept
    if not kept or kept + 0 < now + keep then
      kept = lengthen(KEYS[k + 4], keep, now)
    end
    listed = marks.listed
    if not listed or listed + 0 < now + keep then
      relisted = true
      listed = math.min(reindex(KEYS[k + 5], KEYS[k + 4], keep, now), reindex(KEYS[k + 6], KEYS[k + 4], keep, now))
    end
  end
  if session and relisted then
    -- The session's index names the grant from its first issuance on, and lives at least as
    -- long as its other entries (`listed`), so as long as any token of it: ending the session
    -- finds every grant it gave. Like them, it is moved ahead only when they are. (Once the
    -- session's index is gone, the lengthening does nothing.)
    if not marks then
      redis.call('HSET', session, 'g' .. ARGV[a + 1], client)
    end
    lengthen(session, listed - now, now)
  end
  -- The new refresh token's key is fresh (a random 256-bit token's digest): nothing to clear.
  redis.call('HSET', KEYS[k + 3], 'data', ARGV[a + 4], 'grant', ARGV[a + 1], 'access', KEYS[k + 2],
    'listed', text(listed), 'kept', text(kept), 'pruned', text(pruned or now))
  redis.call('EXPIRE', KEYS[k + 3], ARGV[a + 5])
end
