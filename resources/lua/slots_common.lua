-- Prepended to every slots_* write script when it is loaded (see SlotsKind.cpp), so each operation
-- stays one EVALSHA. Keys of a slot semaphore R:
--   KEYS[1] R|list   LIST of free slot numbers
--   KEYS[2] R|map    HASH holder -> slot number
--   KEYS[3] R|lease  ZSET, semscope's own record beside the layout, kept only on semaphores semscope
--                    created (foreign semaphores are never annotated):
--       'semscope:owned'           +inf  the marker: semscope keeps leases and tokens here
--       'semscope:fence'           n     the last acquisition token handed out
--       'semscope:token:<holder>'  n     the token of <holder>'s current acquisition
--       <holder>                   ms    <holder>'s lease expiry (Redis clock), if it took a lease
-- The seed's own clients know nothing of R|lease: a holder they acquire has no token and no lease.
local MARK, FENCE, TOKEN = 'semscope:owned', 'semscope:fence', 'semscope:token:'
-- Slot numbers above this are treated as garbage: refilling up to one would never end.
local MAX_SLOT = 1000000

local function nowMs()
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- A slot number (whole, 1..MAX_SLOT) or nil.
local function slotNumber(v)
    local s = tonumber(v)
    if s and s >= 1 and s <= MAX_SLOT and s == math.floor(s) then return s end
    return nil
end

-- Whether a member of R|lease is a holder's lease (not the marker, the fence or a token record).
local function isLease(member)
    return member ~= MARK and member ~= FENCE and string.sub(member, 1, #TOKEN) ~= TOKEN
end

local function hasLeaseRecord()
    return redis.call('TYPE', KEYS[3]).ok == 'zset'
end

-- The token of holder's current acquisition as a string ('' when none is recorded), so it compares
-- exactly with the token a caller observed ('' for an acquisition that had none).
local function tokenOf(holder)
    if not hasLeaseRecord() then return '' end
    local t = redis.call('ZSCORE', KEYS[3], TOKEN .. holder)
    if not t then return '' end
    return string.format('%d', tonumber(t))
end

-- Whether holder still has the acquisition a caller saw: the same slot ('' = any) and the same token.
local function isSameAcquisition(holder, current, slot, token)
    if slot ~= '' and tonumber(current) ~= tonumber(slot) then return false end
    return tokenOf(holder) == token
end

-- Drops holder's lease and token: its acquisition ended.
local function forget(holder)
    if hasLeaseRecord() then redis.call('ZREM', KEYS[3], holder, TOKEN .. holder) end
end

-- Gives holder's slot back, as the seed's release does (HDEL, RPUSH), unless the free list already
-- has it (a corrupted semaphore is not made worse), and forgets its lease and token.
local function giveBack(holder, slot)
    redis.call('HDEL', KEYS[2], holder)
    local listType = redis.call('TYPE', KEYS[1]).ok
    if (listType == 'list' or listType == 'none') and slotNumber(slot) then
        if redis.call('LPOS', KEYS[1], slot) == false then redis.call('RPUSH', KEYS[1], slotNumber(slot)) end
    end
    forget(holder)
end

-- Reclaims the slots of holders whose lease ran out, and drops lease and token records of holders
-- that are no longer in the map (released by a client that does not know R|lease). Returns how many
-- slots were reclaimed.
local function reclaimExpired(now)
    if not hasLeaseRecord() then return 0 end
    local n = 0
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
        if isLease(m) then
            local slot = redis.call('HGET', KEYS[2], m)
            if slot then
                giveBack(m, slot)
                n = n + 1
            else
                forget(m)
            end
        elseif string.sub(m, 1, #TOKEN) == TOKEN then
            if redis.call('HEXISTS', KEYS[2], string.sub(m, #TOKEN + 1)) == 0 then
                redis.call('ZREM', KEYS[3], m)
            end
        end
    end
    return n
end

-- RPUSHes a list of numbers in batches (unpack has a limit on its arguments).
local function pushAll(key, numbers)
    for i = 1, #numbers, 1000 do
        redis.call('RPUSH', key, unpack(numbers, i, math.min(i + 999, #numbers)))
    end
end
