-- Prepended to every leased_* write script when it is loaded (see LeasedKind.cpp), so each
-- operation stays one EVALSHA. Key layout of a `leased` semaphore N (all keys share the hash tag):
--   KEYS[1] {N}:holders  ZSET holder -> lease expiry (ms, Redis server clock)
--   KEYS[2] {N}:meta     HASH limit, ttl, fence (last fencing token), ticket (last queue ticket), created
--   KEYS[3] {N}:owners   HASH holder -> "token|acquiredMs|client info"
--   KEYS[4] {N}:queue    LIST of waiter ids, the FIFO queue: joined at the tail, served from the head
--   KEYS[5] {N}:waiting  HASH waiter -> "ticket|ttlMs|leaseMs|tag|client info": what a release needs
--                        to grant the waiter (leaseMs: when it drops out unless it renews; tag: names
--                        the notify channel {N}:released:<tag> of the store it waits in, empty for a
--                        waiter that takes no hand-offs). A record whose id is a holder is a hand-off
--                        that acquisition has not picked up yet (see below).
--
-- Why a LIST and one record: a contended semaphore queues every waiter and serves one per release,
-- so joining and leaving the queue are the hot path. RPUSH and LPOP are O(1) however long the queue,
-- and the waiter's lease lives in the record the hand-off reads anyway; sorted sets for order and
-- lease cost a scan per write while they are small (listpacks) and a log n insert after.
--
-- Invariants every script keeps: an id is queued iff it has a record and holds no slot, and then it
-- is in the list exactly once. An entry that reaches the head without a record (it left, or the keys
-- were edited) is dropped there; so is a dead waiter (lease over), so the queue never hands a slot to
-- a waiter that stopped. Dead waiters further back stay until they reach the head, or a purge.
--
-- Direct hand-off: a script that leaves a slot free while waiters are queued grants it to the head
-- of the queue itself (next fencing token, lease of the waiter's own ttl, owner record) and tells
-- that waiter "<ticket> <token> <expiresAt> <waiter>": PUBLISHed on its notify channel, or, when the
-- release comes from the store the waiter waits in (same tag), in the release's own reply, so
-- nothing is published and nobody else is woken. The waiter's record stays until the holder
-- releases or loses the lease: should the message be lost, the acquisition with that ticket picks
-- the grant up by retrying, and only that one. A live head that takes no hand-offs (empty tag) stops
-- the hand-off, keeping FIFO order: the ids that fit are published on {N}:released instead, and it
-- retries.
--
-- Keys of the wrong type: every path reads each key before it writes it, or writes it first of all,
-- so a command on a key of the wrong type fails before anything was written; keys that a path would
-- otherwise write unread are checked with TYPE (ensure()). The caller names the key at fault when a
-- script fails with WRONGTYPE (LeasedKind asks each key's TYPE then), which keeps the hot path free
-- of per-command checks.
--
-- Cost: these scripts run for every acquire and release of a busy semaphore, and the server's CPU
-- is what limits a contended semaphore. Counted with callgrind, the dear parts were float
-- formatting and parsing (string.format, tonumber go through printf and strtod), Lua patterns, and
-- the closures this file makes at every call; hence "now" read once as both number and string, plain
-- string.find to split records, and few helpers.

-- "now" from the Redis clock, as a number and as an integer string.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local now_s = string.format('%d', now)

-- The first value of a fencing counter started afresh (a new semaphore, or one whose meta was lost):
-- the server clock in microseconds, never 0. A lost counter may have handed out tokens that paused
-- clients still carry, and nothing left on record says how many. It started at an earlier clock
-- reading and rose by one per grant, and no Redis grants a million times a second, so a counter
-- started from the clock now is above all of them. (About 1.8e15: exact in a Lua number, a double,
-- up to 2^53. TIME makes scripts non-deterministic, which Redis 7 allows: it replicates a script by
-- its effects, so replicas and the AOF get the value written.)
local function fence_start()
    return string.format('%d', tonumber(time[1]) * 1000000 + tonumber(time[2]))
end

-- Integers as strings, without float formatting (%.0f, Lua's own %.14g and Redis' %.17g for number
-- arguments all go through the slow floating-point printer). For the same reason constant numeric
-- arguments are written as strings ('0', '1'): redis.call formats every Lua number argument.
local function num(x)
    return string.format('%d', x)
end

-- For keys about to be written that this path has not read (their indexes in KEYS).
local function ensure(...)
    for n = 1, select('#', ...) do
        local i = select(n, ...)
        local t = redis.call('TYPE', KEYS[i]).ok
        local expected = ({'zset', 'hash', 'hash', 'list', 'hash'})[i]
        if t ~= 'none' and t ~= expected then
            error({err = 'WRONGTYPE ' .. KEYS[i] .. ' is a ' .. t .. ', expected a ' .. expected})
        end
    end
end

-- unpack() has a small stack limit: issue variadic commands in chunks.
local function chunked(cmd, key, items)
    local i = 1
    while i <= #items do
        local last = math.min(i + 499, #items)
        redis.call(cmd, key, unpack(items, i, last))
        i = last + 1
    end
end

-- The meta as an acquire needs it: the limit (nil when missing or not a positive integer), its raw
-- value, whether the fencing counter is there, and its raw value.
local function read_meta()
    local meta = redis.call('HMGET', KEYS[2], 'limit', 'fence')
    local n = tonumber(meta[1])
    if not (n and n >= 1 and n == math.floor(n)) then
        n = nil
    end
    return n, meta[1], meta[2] ~= false, meta[2]
end

-- The limit a grant may go by: nil unless the meta is whole. A meta that lost its fencing counter (the
-- key deleted, or evicted under an allkeys-* policy) grants nothing: a counter started again from 0
-- would hand out tokens that holders still carry. Repair rebuilds it (leased_maintenance.lua).
local function stored_limit()
    local n, _, fenced = read_meta()
    return fenced and n or nil
end

-- A waiter's record split into ticket, ttl (ms, as a string), lease (ms), tag and client info; nil
-- for a missing record or garbage.
local function parse_waiting(rec)
    if not rec then
        return nil
    end
    local a = string.find(rec, '|', 1, true)
    local b = a and string.find(rec, '|', a + 1, true)
    local c = b and string.find(rec, '|', b + 1, true)
    local d = c and string.find(rec, '|', c + 1, true)
    local lease = d and tonumber(string.sub(rec, b + 1, c - 1))
    if not lease then
        return nil
    end
    return string.sub(rec, 1, a - 1), string.sub(rec, a + 1, b - 1), lease, string.sub(rec, c + 1, d - 1),
        string.sub(rec, d + 1)
end

-- The fencing token in an owner record ("token|acquiredMs|info"), or nil.
local function record_token(rec)
    local bar = rec and string.find(rec, '|', 1, true)
    return bar and string.sub(rec, 1, bar - 1)
end

-- Removes holders whose lease ran out; returns how many. Counts first, so the usual case (nothing
-- expired) costs one read that returns an integer. Dead waiters are not looked for here: they drop
-- out when they reach the head of the queue (or at a purge).
local function purge_expired()
    if redis.call('ZCOUNT', KEYS[1], '-inf', now_s) == 0 then
        return 0
    end
    -- Rare: the keys this writes and the queue the caller may touch next are checked first.
    ensure(3, 4, 5)
    local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now_s)
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_s)
    chunked('HDEL', KEYS[3], ids)
    chunked('HDEL', KEYS[5], ids) -- hand-offs nobody picked up
    return #ids
end

-- Grants free slots to the waiters at the head of the queue, in order, while there is room.
-- `self` is the caller of an acquire: when its turn comes it is granted without a message (its
-- reply carries the grant) and its token and expiry are returned. `local_tag` names the caller's own
-- store: hand-offs to its waiters are appended to `replies` instead of being published. Returns nil
-- unless `self` was granted. Callers have read (or ensured) every key before their first write.
local function hand_off(limit, self, local_tag, replies)
    if not limit then
        return nil
    end
    -- The release channel, {N}:released, from {N}:holders.
    local channel = string.sub(KEYS[1], 1, -9) .. ':released'
    local free = limit - redis.call('ZCARD', KEYS[1])
    while free > 0 do
        local w = redis.call('LPOP', KEYS[4])
        if not w then
            return nil
        end
        local ticket, ttl, lease, tag, info = parse_waiting(redis.call('HGET', KEYS[5], w))
        if not ticket then
            -- Left, or a stray entry: nothing to grant to.
        elseif lease <= now and w ~= self then
            -- Stopped renewing: it drops out instead of being handed a slot it would leak. (The
            -- caller is alive, whatever its lease says.)
            redis.call('HDEL', KEYS[5], w)
        elseif tag == '' and w ~= self then
            -- Takes no hand-offs: back to the head, and it and the others that fit are woken to
            -- retry themselves; nobody behind them may pass.
            redis.call('LPUSH', KEYS[4], w)
            redis.call('PUBLISH', channel, table.concat(redis.call('LRANGE', KEYS[4], '0', num(free - 1)), '\n'))
            return nil
        else
            local expires = num(now + ttl)
            -- NX: an id that holds a slot already (the keys were edited) is not granted twice, and
            -- its record goes: on a holder it would read as a hand-off that waiter could claim.
            if redis.call('ZADD', KEYS[1], 'NX', expires, w) == 0 then
                redis.call('HDEL', KEYS[5], w)
            else
                local token = num(redis.call('HINCRBY', KEYS[2], 'fence', '1'))
                redis.call('HSET', KEYS[3], w, token .. '|' .. now_s .. '|' .. info)
                free = free - 1
                if w == self then
                    redis.call('HDEL', KEYS[5], w)
                    return token, expires
                end
                local message = ticket .. ' ' .. token .. ' ' .. expires .. ' ' .. w
                if tag == local_tag then
                    replies[#replies + 1] = message
                else
                    redis.call('PUBLISH', channel .. ':' .. tag, message)
                end
            end
        end
    end
    return nil
end

-- Removes a holder and whatever refers to it, then hands its slot on (see hand_off for the last
-- two arguments). `limit` nil: read here, and only when somebody queues (the meta is then read
-- before the first write, like every key of the path). Callers have read the holders and owners keys.
-- With nobody queued the slot stays free, and an empty message on the release channel {N}:released
-- says so: clients that retry after a pause (not queued) ask now instead of sleeping on. (One
-- PUBLISH; with nobody subscribed it is a lookup.)
local function remove_holder(limit, holder, local_tag, replies)
    local queued = redis.call('LLEN', KEYS[4]) > 0 -- a read: the queue's type check
    if queued and not limit then
        limit = stored_limit()
    end
    redis.call('HDEL', KEYS[5], holder) -- first write: a hand-off it never picked up
    redis.call('ZREM', KEYS[1], holder)
    redis.call('HDEL', KEYS[3], holder)
    if queued then
        hand_off(limit, nil, local_tag, replies)
    else
        redis.call('PUBLISH', string.sub(KEYS[1], 1, -9) .. ':released', '')
    end
end
