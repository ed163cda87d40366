-- slots: one acquire attempt, the seed's slot script made safe (KEYS: R|list, R|map, R|lease;
-- ARGV: holder, limit (0 = use HLEN+LLEN of an initialised semaphore), lease ms (0 = none)).
-- Same state changes as the seed's script: RPUSH missing slot numbers up to the limit, LPOP one,
-- HSET holder->slot; the seed's clients keep working on what this leaves behind.
-- A lease (R|lease, holder->expiry ms) is kept only for semaphores semscope created: when this call
-- initialises the layout, or when R|lease already carries semscope's marker. Foreign semaphores
-- are never annotated.
-- Reply: {slot, expiry_ms or -1} granted; {0, slot} this holder already has a slot;
--        {-1, limit, earliest_expiry or -1} full; {-2, message} unusable data.
local MARK = 'semscope:owned'
local holder, limit, leaseMs = ARGV[1], tonumber(ARGV[2]) or 0, tonumber(ARGV[3]) or 0
local listType = redis.call('TYPE', KEYS[1]).ok
local mapType = redis.call('TYPE', KEYS[2]).ok
local leaseType = redis.call('TYPE', KEYS[3]).ok
if listType ~= 'list' and listType ~= 'none' then return {-2, KEYS[1] .. ' is a ' .. listType .. ', expected a list'} end
if mapType ~= 'hash' and mapType ~= 'none' then return {-2, KEYS[2] .. ' is a ' .. mapType .. ', expected a hash'} end
if leaseType ~= 'zset' and leaseType ~= 'none' then return {-2, KEYS[3] .. ' is a ' .. leaseType .. ', expected a zset'} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local fresh = listType == 'none' and mapType == 'none'
local owned = fresh or (leaseType == 'zset' and redis.call('ZSCORE', KEYS[3], MARK) ~= false)
if owned then
    -- Reclaim expired leases. Only holders whose lease ran out lose their slot.
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
        local slot = redis.call('HGET', KEYS[2], m)
        if slot then
            redis.call('HDEL', KEYS[2], m)
            redis.call('RPUSH', KEYS[1], slot)
        end
        redis.call('ZREM', KEYS[3], m)
    end
end
local mine = redis.call('HGET', KEYS[2], holder)
if mine then return {0, tonumber(mine) or -1} end
local mapLen = redis.call('HLEN', KEYS[2])
local listLen = redis.call('LLEN', KEYS[1])
if limit <= 0 then limit = mapLen + listLen end
if limit <= 0 then return {-2, 'the limit is unknown: the semaphore is not initialised and no limit was given'} end
local function earliest()
    if not owned then return -1 end
    local head = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
    if head[2] and head[1] ~= MARK then return tonumber(head[2]) end
    return -1
end
if mapLen >= limit then return {-1, limit, earliest()} end
if mapLen + listLen < limit then
    for i = mapLen + listLen + 1, limit do redis.call('RPUSH', KEYS[1], i) end
end
local slot = redis.call('LPOP', KEYS[1])
if not slot then return {-1, limit, earliest()} end
redis.call('HSET', KEYS[2], holder, tonumber(slot) or slot)
local expiry = -1
if owned and leaseMs > 0 then
    expiry = now + leaseMs
    redis.call('ZADD', KEYS[3], '+inf', MARK)
    redis.call('ZADD', KEYS[3], expiry, holder)
elseif owned then
    redis.call('ZADD', KEYS[3], '+inf', MARK)
end
return {tonumber(slot) or -1, expiry}
