-- Prepended to every leased_* write script when it is loaded (see LeasedKind.cpp), so each
-- operation stays one EVALSHA. Key layout of a `leased` semaphore N (all keys share the hash tag):
--   KEYS[1] {N}:holders        ZSET holder -> lease expiry (ms, Redis server clock)
--   KEYS[2] {N}:meta           HASH limit, ttl, fence (last fencing token), ticket, created
--   KEYS[3] {N}:owners         HASH holder -> "token|acquiredMs|client info"
--   KEYS[4] {N}:waiters        ZSET waiter -> arrival ticket (the FIFO queue)
--   KEYS[5] {N}:waiter-leases  ZSET waiter -> waiter lease expiry (ms); dead waiters drop out
-- Release, force-release, purge, leave and set-limit publish on the `{N}:released` channel the ids of
-- the waiters that may now take a slot (newline-separated), so only those waiters retry.

local KEY_TYPES = {'zset', 'hash', 'hash', 'zset', 'zset'}

local function now_ms()
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function num(x)
    return string.format('%.0f', x)
end

-- Nil when every key is absent or of the expected type; otherwise an error message.
local function wrong_type()
    for i, expected in ipairs(KEY_TYPES) do
        local t = redis.call('TYPE', KEYS[i]).ok
        if t ~= 'none' and t ~= expected then
            return 'WRONGTYPE ' .. KEYS[i] .. ' is a ' .. t .. ', expected a ' .. expected
        end
    end
    return nil
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

-- Removes holders whose lease ran out and waiters that stopped renewing; returns both counts.
local function purge_expired(now)
    local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
    if #gone > 0 then
        redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
        chunked('HDEL', KEYS[3], gone)
    end
    local dead = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now)
    if #dead > 0 then
        redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
        chunked('ZREM', KEYS[4], dead)
    end
    return #gone, #dead
end

-- The stored limit, or nil when the semaphore has none (not created yet) or it is garbage.
local function stored_limit()
    local n = tonumber(redis.call('HGET', KEYS[2], 'limit'))
    if n and n >= 1 and n == math.floor(n) then
        return n
    end
    return nil
end

-- Tells the waiters at the head of the queue that there is room for them now.
local function wake_eligible(limit, channel)
    if not limit then
        return
    end
    local free = limit - redis.call('ZCARD', KEYS[1])
    if free <= 0 then
        return
    end
    local head = redis.call('ZRANGE', KEYS[4], 0, free - 1)
    if #head > 0 then
        redis.call('PUBLISH', channel, table.concat(head, '\n'))
    end
end

-- The fencing token stored for `holder`, or nil.
local function owner_token(holder)
    local rec = redis.call('HGET', KEYS[3], holder)
    if not rec then
        return nil
    end
    return string.match(rec, '^(%d+)|')
end

