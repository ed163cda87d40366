-- zset: extend a holder's expiry (KEYS: K; ARGV: holder, lease ms, unit 'ms' | 's' | 'auto').
-- An entry that already expired is lost (and removed), never revived.
-- Reply: {1, expiry_ms} refreshed; {0} lost.
local holder, leaseMs, unit = ARGV[1], tonumber(ARGV[2]), ARGV[3]
if redis.call('TYPE', KEYS[1]).ok ~= 'zset' then return {0} end
local current = redis.call('ZSCORE', KEYS[1], holder)
if not current then return {0} end
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if unit == 'auto' then
    unit = math.abs(tonumber(current) - nowMs / 1000) < 1e8 and 's' or 'ms'
end
local scale = unit == 's' and 1000 or 1
if tonumber(current) * scale <= nowMs then
    redis.call('ZREM', KEYS[1], holder)
    return {0}
end
local expiryMs = nowMs + leaseMs
redis.call('ZADD', KEYS[1], 'XX', unit == 's' and string.format('%.3f', expiryMs / 1000) or expiryMs, holder)
return {1, expiryMs}
