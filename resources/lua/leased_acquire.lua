-- leased: one acquire attempt (after leased_common.lua).
-- ARGV: holder, ttl ms, limit to create the semaphore with, client info, wait (0/1), waiter lease
--       ms, notify tag of the caller's store ('' = no hand-off: retry when woken), how many holders
--       a busy reply lists ('0' = none), the caller's queue ticket (-1: none yet).
-- Returns {'ok', token, expiresAt, now, rank}
--       | {'busy', now, wakeAt or -1, queuePosition or -1, ticket or -1, holder1, expiry1, owner1, ...}
--       | {'held', now, owner record}
local holder = ARGV[1]
local wait = ARGV[5] == '1'
local tag = ARGV[7]
if string.find(tag, '|', 1, true) then
    return redis.error_reply('BADTAG notify tag must not contain |')
end

local limit, raw_limit, fenced, fence = read_meta()
if not (limit and fenced) then
    if raw_limit and not limit then
        return redis.error_reply('BADLIMIT ' .. KEYS[2] .. ' limit is not a positive integer')
    end
    -- Holders, owner records or waiters without a whole meta: the meta was lost (DEL, eviction).
    -- Creating it again would take this caller's limit and count tokens from 0 again, so that a
    -- new holder carries the token of one still there. Read before anything is written.
    if not fenced and redis.call('EXISTS', KEYS[1], KEYS[3], KEYS[4], KEYS[5]) > 0 then
        -- Unless what is there is not the layout's at all (a key SET by hand): that is named first,
        -- since no repair rebuilds a meta beside a key of the wrong type.
        ensure(1, 3, 4, 5)
        return redis.error_reply('METAMISSING meta missing — run repair: ' .. KEYS[2] ..
                                     ' lost its fencing counter (deleted or evicted) while holders or ' ..
                                     'waiters remain; an acquire now could repeat their tokens' ..
                                     (limit and '' or '. Then restore the limit with set-limit'))
    end
    if fenced then
        return redis.error_reply('NOLIMIT ' .. KEYS[2] .. ' keeps no limit (it was lost): ' ..
                                     'set it with set-limit before acquiring')
    end
    -- The first acquire creates the semaphore with the caller's limit. (A stored limit without a
    -- counter and nothing else on record: the counter starts again.) Nothing tells a new semaphore
    -- from one whose meta was lost after its last holder left, whose tokens paused clients may still
    -- carry: the counter starts from the clock (fence_start), above them.
    ensure(1, 3, 4, 5)
    if not limit then
        limit = tonumber(ARGV[3])
        redis.call('HSET', KEYS[2], 'limit', ARGV[3], 'ttl', ARGV[2], 'created', now_s)
    end
    fence = fence_start()
    redis.call('HSET', KEYS[2], 'fence', fence)
end
-- Expired leases are purged when they could be in this caller's way: its own (below), or when
-- the semaphore is full or others queue (further down). An uncontended acquire with room to spare
-- skips the look: an expired lease left in the holders set still counts against the limit, so it
-- can only keep a newcomer out, never let one in too many, and the next acquire that finds the
-- semaphore full purges it (as does a release, a refresh or a purge).
local purged = false
local score = redis.call('ZSCORE', KEYS[1], holder)
if score and tonumber(score) <= now then
    -- This caller's own lease ran out: it holds nothing, and asks like anyone else.
    purge_expired()
    purged = true
    score = nil
end
local mine = redis.call('HGET', KEYS[5], holder) -- its waiter record, if any
if score then
    local rec = redis.call('HGET', KEYS[3], holder)
    local token = record_token(rec)
    if wait and token and parse_waiting(mine) == ARGV[9] then
        -- A release handed this very queue entry its slot and the message has not reached the
        -- waiter (or was lost): the grant is picked up here. Any other acquisition of a held id is
        -- the usual error.
        redis.call('HDEL', KEYS[5], holder)
        return {'ok', token, score, now_s, redis.call('ZRANK', KEYS[1], holder)}
    end
    return {'held', now_s, rec or ''}
end

local queued = parse_waiting(mine) -- not a holder: a record means it is in line (its ticket)
local free = limit - redis.call('ZCARD', KEYS[1])
local waiters = free > 0 and redis.call('LLEN', KEYS[4]) > 0
if not purged and (free <= 0 or waiters) and purge_expired() > 0 then
    free = limit - redis.call('ZCARD', KEYS[1])
    waiters = free > 0 and redis.call('LLEN', KEYS[4]) > 0
end
local pos -- this caller's place in the queue, once known
if waiters then
    -- Room while others queue (expired leases were just purged, or the head takes no hand-offs):
    -- the queue goes first, this caller maybe among them.
    ensure(3)
    fence = nil -- the hand-off may take tokens: read the counter again when granting
    local token, expires = hand_off(limit, holder)
    if token then
        return {'ok', token, expires, now_s, redis.call('ZRANK', KEYS[1], holder)}
    end
    free = limit - redis.call('ZCARD', KEYS[1])
    if free > 0 and redis.call('LLEN', KEYS[4]) > 0 then
        -- Stopped at a head that takes no hand-offs: a slot only if this caller is among the first
        -- `free` in line.
        pos = redis.call('LPOS', KEYS[4], holder, 'MAXLEN', num(free))
        if not pos then
            free = 0
        end
    end
end

if free > 0 then
    local token
    local counter = fence and tonumber(fence)
    if counter and counter == math.floor(counter) and counter < 9007199254740992 then
        -- The counter as read with the limit, and nothing granted since: the next token is that plus
        -- one (the script runs alone). The owner record goes first: the owners hash is the one key
        -- of this path not read before, and a command on a key of the wrong type fails before
        -- anything is written, so it needs no TYPE check of its own.
        token = num(counter + 1)
        redis.call('HSET', KEYS[3], holder, token .. '|' .. now_s .. '|' .. ARGV[4])
        redis.call('HSET', KEYS[2], 'fence', token)
    else
        ensure(3)
        token = num(redis.call('HINCRBY', KEYS[2], 'fence', '1'))
        redis.call('HSET', KEYS[3], holder, token .. '|' .. now_s .. '|' .. ARGV[4])
    end
    if pos then
        redis.call('LREM', KEYS[4], '1', holder)
    end
    if mine then
        redis.call('HDEL', KEYS[5], holder)
    end
    local expires = num(now + tonumber(ARGV[2]))
    redis.call('ZADD', KEYS[1], expires, holder)
    return {'ok', token, expires, now_s, redis.call('ZRANK', KEYS[1], holder)}
end

-- Busy. What is only read comes first (the owners, when holders are listed); then the queue, whose
-- first command is a write only when nothing else was written before it.
local reply = {'busy', now_s, -1, -1, -1}
if ARGV[8] ~= '0' then
    local holders = redis.call('ZRANGE', KEYS[1], '0', num(tonumber(ARGV[8]) - 1), 'WITHSCORES')
    local ids = {}
    for i = 1, #holders, 2 do
        ids[#ids + 1] = holders[i]
    end
    local records = {}
    if #ids > 0 then
        records = redis.call('HMGET', KEYS[3], unpack(ids))
    end
    for i = 1, #ids do
        reply[#reply + 1] = ids[i]
        reply[#reply + 1] = holders[2 * i]
        reply[#reply + 1] = records[i] or ''
    end
end

if wait then
    local ticket
    if queued then
        -- Already in line: it keeps its place and renews its waiter lease.
        pos = pos or redis.call('LPOS', KEYS[4], holder)
        if pos then
            ticket = queued
        end
    end
    if not ticket then
        pos = redis.call('RPUSH', KEYS[4], holder) - 1
        ticket = num(redis.call('HINCRBY', KEYS[2], 'ticket', '1'))
    end
    redis.call('HSET', KEYS[5], holder,
               ticket .. '|' .. ARGV[2] .. '|' .. num(now + tonumber(ARGV[6])) .. '|' .. tag .. '|' .. ARGV[4])
    reply[4] = pos
    reply[5] = ticket
else
    pos = redis.call('LLEN', KEYS[4])
end

-- This caller's turn comes once (pos - free + 1) holders have left: the earliest moment that can
-- happen without a release is the expiry of the holder at that index in expiry order (a retry then
-- purges it and hands the room on). Deeper in the queue than there are holders, no expiry alone
-- makes room: nothing to read.
local need = pos - free
if need >= 0 and need < limit - free then
    local at = redis.call('ZRANGE', KEYS[1], num(need), num(need), 'WITHSCORES')
    if #at == 2 then
        reply[3] = at[2]
    end
end
return reply
