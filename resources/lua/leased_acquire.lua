-- leased: one acquire attempt (after leased_common.lua).
-- ARGV: holder, ttl ms, limit to create the semaphore with, client info, wait (0/1),
--       waiter lease ms, release channel, notify channel ('' = no hand-off: retry when woken),
--       how many holders a busy reply lists (0 = none), the caller's queue ticket (-1: none yet).
-- Returns {'ok', token, expiresAt, now, rank}
--       | {'busy', now, wakeAt or -1, queuePosition or -1, ticket or -1, holder1, expiry1, owner1, ...}
--       | {'held', now, owner record}
local holder = ARGV[1]
local ttl = tonumber(ARGV[2])
local wait = ARGV[5] == '1'
local channel = ARGV[7]
local notify = ARGV[8]
local now = now_ms()

local limit, raw_limit = stored_limit()
local gone = purge_expired(now)
if not limit then
    if raw_limit then
        return redis.error_reply('BADLIMIT ' .. KEYS[2] .. ' limit is not a positive integer')
    end
    -- First acquire creates the semaphore with the caller's limit.
    limit = tonumber(ARGV[3])
    redis.call('HSET', KEYS[2], 'limit', ARGV[3], 'ttl', ARGV[2], 'created', num(now))
    redis.call('HSETNX', KEYS[2], 'fence', '0')
end

local score = read(1, 'ZSCORE', holder)
if score then
    local rec = read(3, 'HGET', holder)
    local token = record_token(rec)
    if wait and token and ARGV[10] ~= '-1' and read(6, 'HGET', holder) == '=' .. ARGV[10] then
        -- A release handed this very queue entry its slot and the message has not reached the
        -- waiter (or was lost): the grant is picked up here. Any other acquisition of a held id
        -- is the usual error.
        redis.call('HDEL', KEYS[6], holder)
        return {'ok', tonumber(token), score, num(now), redis.call('ZRANK', KEYS[1], holder)}
    end
    return {'held', num(now), rec or ''}
end

local free = limit - redis.call('ZCARD', KEYS[1])
local pos = read(4, 'ZRANK', holder)
local ahead = pos
if free > 0 then
    if not ahead then
        ahead = redis.call('ZCARD', KEYS[4])
    end
    if ahead > 0 then
        -- Room while others queue (expired leases were just purged, or the queue was left behind
        -- by a client that takes no hand-offs): the queue goes first, this caller maybe among them.
        local mine = hand_off(now, limit, channel, holder)
        if mine then
            return {'ok', mine[1], mine[2], num(now), redis.call('ZRANK', KEYS[1], holder)}
        end
        free = limit - redis.call('ZCARD', KEYS[1])
        pos = redis.call('ZRANK', KEYS[4], holder)
        ahead = pos or redis.call('ZCARD', KEYS[4])
    end
end

if free > 0 and ahead < free then
    ensure(3)
    if pos then
        ensure(6)
        redis.call('ZREM', KEYS[4], holder)
        redis.call('ZREM', KEYS[5], holder)
        redis.call('HDEL', KEYS[6], holder)
    end
    local token = redis.call('HINCRBY', KEYS[2], 'fence', '1')
    local expires = num(now + ttl)
    redis.call('ZADD', KEYS[1], expires, holder)
    redis.call('HSET', KEYS[3], holder, num(token) .. '|' .. num(now) .. '|' .. ARGV[4])
    return {'ok', token, expires, num(now), redis.call('ZRANK', KEYS[1], holder)}
end

if not ahead then
    ahead = pos or redis.call('ZCARD', KEYS[4])
end

-- This caller's turn comes once (ahead - free + 1) holders have left: the earliest moment that can
-- happen without a release is the expiry of the holder at that index in expiry order (a retry then
-- purges it and hands the room on).
local wake = -1
local need = ahead - free
-- Deeper in the queue than there are holders, no expiry alone makes room: nothing to read.
if need >= 0 and need < limit - free then
    local at = redis.call('ZRANGE', KEYS[1], num(need), num(need), 'WITHSCORES')
    if #at == 2 then
        wake = at[2]
    end
end

-- Everything that is only read comes before the queue writes, so a key of the wrong type fails
-- the call before anything was written.
local reply = {'busy', num(now), wake, pos or -1, -1}
local cap = tonumber(ARGV[9]) or 0
if cap > 0 then
    local holders = redis.call('ZRANGE', KEYS[1], '0', num(cap - 1), 'WITHSCORES')
    local ids = {}
    for i = 1, #holders, 2 do
        ids[#ids + 1] = holders[i]
    end
    local records = {}
    if #ids > 0 then
        records = read(3, 'HMGET', unpack(ids))
    end
    for i = 1, #ids do
        reply[#reply + 1] = ids[i]
        reply[#reply + 1] = holders[2 * i]
        reply[#reply + 1] = records[i] or ''
    end
end

if wait then
    -- Writing the record first also checks the key's type before the other writes.
    local lease = num(now + tonumber(ARGV[6]))
    if notify ~= '' then
        read(6, 'HSET', holder, ARGV[2] .. '|' .. notify .. '|' .. ARGV[4])
    else
        ensure(6)
        redis.call('HDEL', KEYS[6], holder)
    end
    if pos then
        reply[5] = redis.call('ZSCORE', KEYS[4], holder)
    else
        local ticket = redis.call('HINCRBY', KEYS[2], 'ticket', '1')
        redis.call('ZADD', KEYS[4], num(ticket), holder)
        reply[4] = ahead
        reply[5] = ticket
    end
    redis.call('ZADD', KEYS[5], lease, holder)
end
return reply
