-- slots: reclaim holders whose semscope lease ran out (KEYS: R|list, R|map, R|lease). Semaphores
-- without a lease have nothing to purge: their holders have no TTL.
-- Reply: number of holders reclaimed.
if redis.call('TYPE', KEYS[3]).ok ~= 'zset' or redis.call('TYPE', KEYS[2]).ok ~= 'hash' then return 0 end
local listType = redis.call('TYPE', KEYS[1]).ok
if listType ~= 'list' and listType ~= 'none' then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = 0
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
    local slot = redis.call('HGET', KEYS[2], m)
    if slot then
        redis.call('HDEL', KEYS[2], m)
        if redis.call('LPOS', KEYS[1], slot) == false then redis.call('RPUSH', KEYS[1], slot) end
        n = n + 1
    end
    redis.call('ZREM', KEYS[3], m)
end
return n
