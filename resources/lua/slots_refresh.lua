-- slots: extend a holder's lease (KEYS: R|list, R|map, R|lease; ARGV: holder, slot, lease ms).
-- Lost when the holder no longer has exactly this slot; never re-acquires.
-- Reply: {1, expiry_ms or -1} still held; {0} lost.
local holder, slot, leaseMs = ARGV[1], ARGV[2], tonumber(ARGV[3]) or 0
if redis.call('TYPE', KEYS[2]).ok ~= 'hash' then return {0} end
local current = redis.call('HGET', KEYS[2], holder)
if not current or (slot ~= '' and tonumber(current) ~= tonumber(slot)) then return {0} end
if redis.call('TYPE', KEYS[3]).ok ~= 'zset' or redis.call('ZSCORE', KEYS[3], holder) == false or leaseMs <= 0 then
    return {1, -1}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if tonumber(redis.call('ZSCORE', KEYS[3], holder)) <= now then
    -- The lease ran out; the next acquire would reclaim it. Give it back instead of reviving it.
    redis.call('HDEL', KEYS[2], holder)
    redis.call('RPUSH', KEYS[1], current)
    redis.call('ZREM', KEYS[3], holder)
    return {0}
end
redis.call('ZADD', KEYS[3], now + leaseMs, holder)
return {1, now + leaseMs}
