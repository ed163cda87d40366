-- slots: reclaim holders whose semscope lease ran out (KEYS: R|list, R|map, R|lease). Semaphores
-- without a lease have nothing to purge: their holders have no TTL.
-- Reply: number of holders reclaimed.
if redis.call('TYPE', KEYS[3]).ok ~= 'zset' or redis.call('TYPE', KEYS[2]).ok ~= 'hash' then return 0 end
local listType = redis.call('TYPE', KEYS[1]).ok
if listType ~= 'list' and listType ~= 'none' then return 0 end
return reclaimExpired(nowMs())
