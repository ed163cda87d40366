-- slots: one acquire attempt, the seed's slot script made safe (KEYS: R|list, R|map, R|lease;
-- ARGV: holder, limit for a semaphore this call creates, lease ms (0 = none), '1' when that lease
-- was asked for and must be kept (refused, nothing written, where this layout keeps none).
-- Same state changes as the seed's script: RPUSH missing slot numbers, LPOP one, HSET holder->slot;
-- the seed's clients keep working on what this leaves behind. Unlike the seed's, a slot number is
-- never handed out twice, whatever the data:
--   * the slots pushed are the ones actually missing from 1..N (neither held nor free), not
--     HLEN+LLEN+1..N, which would duplicate a held slot when a lower one leaked;
--   * a free-list entry that is already held, or is no slot number, is dropped instead of granted.
-- N is the semaphore's own once it exists: the highest slot number it holds or lists, or the number
-- of distinct slots if that is larger (the snapshot reads it the same way). The caller's limit only
-- sizes a semaphore this call creates; changing N is set-limit's job.
-- Leases and acquisition tokens (R|lease, see slots_common.lua) are kept only for semaphores semscope
-- created: when this call creates the layout, or when R|lease already carries the marker.
-- Reply: {slot, expiry_ms or -1, token or -1, N} granted; {0, slot} this holder already has a slot;
--        {-1, N, earliest_expiry or -1} full; {-2, message} unusable data; {-3} no lease kept here
--        though one was asked for.
local holder, limit, leaseMs = ARGV[1], tonumber(ARGV[2]) or 0, tonumber(ARGV[3]) or 0
local listType = redis.call('TYPE', KEYS[1]).ok
local mapType = redis.call('TYPE', KEYS[2]).ok
local leaseType = redis.call('TYPE', KEYS[3]).ok
if listType ~= 'list' and listType ~= 'none' then return {-2, KEYS[1] .. ' is a ' .. listType .. ', expected a list'} end
if mapType ~= 'hash' and mapType ~= 'none' then return {-2, KEYS[2] .. ' is a ' .. mapType .. ', expected a hash'} end
if leaseType ~= 'zset' and leaseType ~= 'none' then return {-2, KEYS[3] .. ' is a ' .. leaseType .. ', expected a zset'} end
local now = nowMs()
local fresh = listType == 'none' and mapType == 'none'
local owned = fresh or (leaseType == 'zset' and redis.call('ZSCORE', KEYS[3], MARK) ~= false)
-- The seed's clients know no lease: a slot taken here is held until released, not for the lease asked.
if ARGV[4] == '1' and not owned then return {-3} end
-- Only holders whose lease ran out lose their slot.
if owned then reclaimExpired(now) end
local mine = redis.call('HGET', KEYS[2], holder)
if mine then return {0, tonumber(mine) or -1} end

local held, heldCount, maxSlot = {}, 0, 0
if mapType == 'hash' then
    for _, v in ipairs(redis.call('HVALS', KEYS[2])) do
        local s = slotNumber(v)
        if s and not held[s] then
            held[s] = true
            heldCount = heldCount + 1
            if s > maxSlot then maxSlot = s end
        end
    end
end
local free, freeCount = {}, 0
if listType == 'list' then
    for _, v in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
        local s = slotNumber(v)
        if s and not held[s] and not free[s] then
            free[s] = true
            freeCount = freeCount + 1
            if s > maxSlot then maxSlot = s end
        end
    end
end
if fresh then
    if limit <= 0 then return {-2, 'the limit is unknown: the semaphore is not initialised and no limit was given'} end
    if limit > MAX_SLOT or limit ~= math.floor(limit) then
        return {-2, 'the limit must be a whole number from 1 to ' .. MAX_SLOT}
    end
else
    limit = math.max(maxSlot, heldCount + freeCount)
    if limit <= 0 then return {-2, KEYS[1] .. ' and ' .. KEYS[2] .. ' hold no slot numbers; set its limit'} end
end

local function earliest()
    if not owned or not hasLeaseRecord() then return -1 end
    local e = -1
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], now, '+inf')) do
        if isLease(m) then
            e = tonumber(redis.call('ZSCORE', KEYS[3], m))
            break
        end
    end
    return e
end
if redis.call('HLEN', KEYS[2]) >= limit then return {-1, limit, earliest()} end

if heldCount + freeCount < limit then
    local missing = {}
    for s = 1, limit do
        if not held[s] and not free[s] then missing[#missing + 1] = s end
    end
    pushAll(KEYS[1], missing)
end
local slot
repeat
    local v = redis.call('LPOP', KEYS[1])
    if not v then return {-1, limit, earliest()} end
    local s = slotNumber(v)
    if s and not held[s] then slot = s end
until slot
redis.call('HSET', KEYS[2], holder, slot)
local expiry, token = -1, -1
if owned then
    redis.call('ZADD', KEYS[3], '+inf', MARK)
    token = tonumber(redis.call('ZINCRBY', KEYS[3], 1, FENCE))
    redis.call('ZADD', KEYS[3], token, TOKEN .. holder)
    if leaseMs > 0 then
        expiry = now + leaseMs
        redis.call('ZADD', KEYS[3], expiry, holder)
    end
end
return {slot, expiry, token, limit}
