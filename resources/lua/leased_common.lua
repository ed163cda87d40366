-- Prepended to every leased_* write script when it is loaded (see LeasedKind.cpp), so each
-- operation stays one EVALSHA. Key layout of a `leased` semaphore N (all keys share the hash tag):
--   KEYS[1] {N}:holders        ZSET holder -> lease expiry (ms, Redis server clock)
--   KEYS[2] {N}:meta           HASH limit, ttl, fence (last fencing token), ticket, created
--   KEYS[3] {N}:owners         HASH holder -> "token|acquiredMs|client info"
--   KEYS[4] {N}:waiters        ZSET waiter -> arrival ticket (the FIFO queue)
--   KEYS[5] {N}:waiter-leases  ZSET waiter -> waiter lease expiry (ms); dead waiters drop out
--   KEYS[6] {N}:waiting        HASH waiter -> "ttlMs|notify channel|client info" while it is queued;
--                              "=ticket" once a release handed that queue entry a slot, until the
--                              acquisition picks the grant up, releases it or loses the lease
--
-- Direct hand-off: a script that leaves a slot free while waiters are queued grants it to the head
-- of the queue itself (next fencing token, lease of the waiter's own ttl, owner record) and
-- PUBLISHes "<ticket> <token> <expiresAt> <waiter>" on that waiter's notify channel, so the waiter
-- has its grant without another round trip and nobody else is woken. A queue head without a record
-- (queued by a client that does not take hand-offs) stops the hand-off, keeping FIFO order: its id
-- (and those of the others that fit) is published on `{N}:released` instead, and it retries.
--
-- Type checks cost no extra command where avoidable: each script reads a key (through read()) before
-- it first writes it, and a read of a key of the wrong type fails before anything was written.
-- Keys written without a prior read are checked with TYPE once (ensure()).

local KEY_TYPES = {'zset', 'hash', 'hash', 'zset', 'zset', 'hash'}
local checked = {}

local function now_ms()
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Integers as strings, without float formatting (%.0f, Lua's own %.14g and Redis' %.17g for number
-- arguments all go through the slow floating-point printer, a visible share of the server's CPU).
-- For the same reason constant numeric arguments are written as strings ('0', '1'): redis.call
-- formats every Lua number argument with %.17g.
local function num(x)
    return string.format('%d', x)
end

local function wrong_type(i)
    local t = redis.call('TYPE', KEYS[i]).ok
    error({err = 'WRONGTYPE ' .. KEYS[i] .. ' is a ' .. t .. ', expected a ' .. KEY_TYPES[i]})
end

-- A command on KEYS[i] whose failure on a key of the wrong type becomes a clear error naming it.
local function read(i, cmd, ...)
    local r = redis.pcall(cmd, KEYS[i], ...)
    if type(r) == 'table' and r.err then
        if string.find(r.err, 'WRONGTYPE', 1, true) then
            wrong_type(i)
        end
        error(r)
    end
    checked[i] = true
    return r
end

-- For a key about to be written that this script has not read yet.
local function ensure(i)
    if checked[i] then
        return
    end
    local t = redis.call('TYPE', KEYS[i]).ok
    if t ~= 'none' and t ~= KEY_TYPES[i] then
        wrong_type(i)
    end
    checked[i] = true
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

-- The stored limit (nil when not created yet or garbage) and the raw value.
local function stored_limit()
    local raw = read(2, 'HGET', 'limit')
    local n = tonumber(raw)
    if n and n >= 1 and n == math.floor(n) then
        return n, raw
    end
    return nil, raw
end

-- Removes holders whose lease ran out and waiters that stopped renewing; returns both counts. Counts
-- first, so the usual case (nothing expired) costs two reads that return integers.
local function purge_expired(now)
    local gone, dead = 0, 0
    local at = num(now)
    if read(1, 'ZCOUNT', '-inf', at) > 0 then
        ensure(3)
        ensure(6)
        local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', at)
        redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', at)
        chunked('HDEL', KEYS[3], ids)
        chunked('HDEL', KEYS[6], ids) -- hand-offs nobody picked up
        gone = #ids
    end
    if read(5, 'ZCOUNT', '-inf', at) > 0 then
        ensure(4)
        ensure(6)
        local ids = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', at)
        redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', at)
        chunked('ZREM', KEYS[4], ids)
        chunked('HDEL', KEYS[6], ids)
        dead = #ids
    end
    return gone, dead
end

-- Grants free slots to the waiters at the head of the queue, in order, while there is room.
-- `self` is the caller of an acquire: when its turn comes it is granted without a message (its
-- reply carries the grant) and {token, expiresAt} is returned. Returns nil otherwise. A head whose
-- waiter lease ran out is dropped on the way (callers need not have purged). `pre` is what
-- peek_queue() read, when the caller had to read it before its own writes.
local function peek_queue()
    local head = read(4, 'ZRANGE', '0', '0', 'WITHSCORES')
    local lease = false
    if #head == 2 then
        lease = read(5, 'ZSCORE', head[1])
    end
    return {head = head, lease = lease}
end

local function hand_off(now, limit, channel, self, pre)
    if not limit then
        return nil
    end
    pre = pre or peek_queue()
    local head = pre.head
    if #head == 0 then
        return nil
    end
    local free = limit - redis.call('ZCARD', KEYS[1])
    while free > 0 and #head == 2 do
        local w, ticket = head[1], head[2]
        local rec = read(6, 'HGET', w)
        local ttl, notify, info
        if rec then
            ttl, notify, info = string.match(rec, '^(%d+)|([^|]+)|(.*)$')
        end
        local lease = pre.lease
        if pre.head ~= head then
            lease = redis.call('ZSCORE', KEYS[5], w)
        end
        if not lease or tonumber(lease) <= now then
            -- Stopped renewing: it drops out instead of being handed a slot it would leak.
            redis.call('ZREM', KEYS[4], w)
            redis.call('ZREM', KEYS[5], w)
            redis.call('HDEL', KEYS[6], w)
        elseif not ttl then
            -- No record to grant from: wake it the old way (unless it is the caller, who is
            -- looking already) and leave the rest of the queue behind it.
            if w ~= self then
                redis.call('PUBLISH', channel, table.concat(redis.call('ZRANGE', KEYS[4], '0', num(free - 1)), '\n'))
            end
            return nil
        else
            ensure(3)
            redis.call('ZREM', KEYS[4], w)
            redis.call('ZREM', KEYS[5], w)
            local token = redis.call('HINCRBY', KEYS[2], 'fence', '1')
            local expires = num(now + tonumber(ttl))
            redis.call('ZADD', KEYS[1], expires, w)
            redis.call('HSET', KEYS[3], w, num(token) .. '|' .. num(now) .. '|' .. info)
            free = free - 1
            if w == self then
                redis.call('HDEL', KEYS[6], w)
                return {token, expires}
            end
            -- Marks the grant as not picked up yet, by that acquisition only (see the header).
            redis.call('HSET', KEYS[6], w, '=' .. ticket)
            redis.call('PUBLISH', notify, ticket .. ' ' .. num(token) .. ' ' .. expires .. ' ' .. w)
        end
        if free > 0 then
            head = redis.call('ZRANGE', KEYS[4], '0', '0', 'WITHSCORES')
        end
    end
    return nil
end

-- The fencing token in an owner record, or nil.
local function record_token(rec)
    if not rec then
        return nil
    end
    return string.match(rec, '^(%d+)|')
end

-- The fencing token stored for `holder`, or nil.
local function owner_token(holder)
    return record_token(read(3, 'HGET', holder))
end

-- Removes a holder and whatever refers to it, then hands its slot on.
local function remove_holder(now, limit, channel, holder)
    ensure(3)
    local pre = peek_queue() -- read before the writes: the type checks of the queue's keys
    read(6, 'HDEL', holder)
    redis.call('ZREM', KEYS[1], holder)
    redis.call('HDEL', KEYS[3], holder)
    hand_off(now, limit, channel, nil, pre)
end
