-- leased: one acquire attempt (after leased_common.lua).
-- ARGV: holder, ttl ms, limit to create the semaphore with, client info, wait (0/1),
--       waiter lease ms, release channel.
-- Returns {'ok', token, expiresAt, now, rank}
--       | {'busy', now, wakeAt or -1, queuePosition or -1, holder1, expiry1, owner1, ...}
--       | {'held', now, owner record}
local bad = wrong_type()
if bad then
    return redis.error_reply(bad)
end
local holder = ARGV[1]
local ttl = tonumber(ARGV[2])
local create_limit = tonumber(ARGV[3])
local wait = ARGV[5] == '1'
local waiter_lease = tonumber(ARGV[6])
local channel = ARGV[7]
local now = now_ms()

local gone, dead = purge_expired(now)

local limit = stored_limit()
if not limit then
    if redis.call('HEXISTS', KEYS[2], 'limit') == 1 then
        return redis.error_reply('BADLIMIT ' .. KEYS[2] .. ' limit is not a positive integer')
    end
    -- First acquire creates the semaphore with the caller's limit.
    limit = create_limit
    redis.call('HSET', KEYS[2], 'limit', limit, 'ttl', ttl, 'created', num(now))
    redis.call('HSETNX', KEYS[2], 'fence', 0)
end

if redis.call('ZSCORE', KEYS[1], holder) then
    return {'held', num(now), redis.call('HGET', KEYS[3], holder) or ''}
end

local free = limit - redis.call('ZCARD', KEYS[1])
local pos = redis.call('ZRANK', KEYS[4], holder)
local ahead = pos
if not ahead then
    ahead = redis.call('ZCARD', KEYS[4])
end

if ahead < free then
    redis.call('ZREM', KEYS[4], holder)
    redis.call('ZREM', KEYS[5], holder)
    local token = redis.call('HINCRBY', KEYS[2], 'fence', 1)
    local expires = now + ttl
    redis.call('ZADD', KEYS[1], num(expires), holder)
    redis.call('HSET', KEYS[3], holder, token .. '|' .. num(now) .. '|' .. ARGV[4])
    if gone + dead > 0 then
        -- Purging freed room that this grant did not use up: pass it on.
        wake_eligible(limit, channel)
    end
    return {'ok', token, num(expires), num(now), redis.call('ZRANK', KEYS[1], holder)}
end

if wait then
    if not pos then
        local ticket = redis.call('HINCRBY', KEYS[2], 'ticket', 1)
        redis.call('ZADD', KEYS[4], ticket, holder)
        pos = redis.call('ZCARD', KEYS[4]) - 1
    end
    redis.call('ZADD', KEYS[5], num(now + waiter_lease), holder)
end
if gone + dead > 0 then
    wake_eligible(limit, channel)
end

-- This caller's turn comes once (ahead - free + 1) holders have left: the earliest moment that can
-- happen without a release is the expiry of the holder at that index in expiry order.
local wake = -1
local need = ahead - free
if need >= 0 then
    local at = redis.call('ZRANGE', KEYS[1], need, need, 'WITHSCORES')
    if #at == 2 then
        wake = at[2]
    end
end

local reply = {'busy', num(now), wake, pos or -1}
local holders = redis.call('ZRANGE', KEYS[1], 0, 999, 'WITHSCORES')
for i = 1, #holders, 2 do
    reply[#reply + 1] = holders[i]
    reply[#reply + 1] = holders[i + 1]
    reply[#reply + 1] = redis.call('HGET', KEYS[3], holders[i]) or ''
end
return reply
