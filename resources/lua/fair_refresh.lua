-- fair: refresh (KEYS: S, S:owner, S:counter; ARGV: holder, counter of the grant, timeout ms).
-- Like the seed's ZADD XX: only an entry that still exists is updated. An entry that timed out or
-- belongs to a newer acquisition (different counter) is lost, never revived.
-- Reply: {1, acquired_ms} refreshed; {0} lost.
local holder, token, timeoutMs = ARGV[1], ARGV[2], tonumber(ARGV[3])
if redis.call('TYPE', KEYS[1]).ok ~= 'zset' or redis.call('TYPE', KEYS[2]).ok ~= 'zset' then return {0} end
local score = redis.call('ZSCORE', KEYS[1], holder)
local owner = redis.call('ZSCORE', KEYS[2], holder)
if not score or not owner then return {0} end
if token ~= '' and tonumber(owner) ~= tonumber(token) then return {0} end
local t = redis.call('TIME')
local nowS = tonumber(t[1]) + tonumber(t[2]) / 1000000
if tonumber(score) < nowS - timeoutMs / 1000 then
    redis.call('ZREM', KEYS[1], holder)
    redis.call('ZREM', KEYS[2], holder)
    return {0}
end
redis.call('ZADD', KEYS[1], 'XX', string.format('%.6f', nowS), holder)
return {1, math.floor(nowS * 1000)}
