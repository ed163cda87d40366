-- zset: extend a holder's expiry (after zset_common.lua; KEYS: K; ARGV: holder, lease ms,
-- unit 'ms' | 's' | 'auto', the clients' lease ms or 0 if unknown). An entry that already expired
-- is lost (and removed), never revived. The new expiry is capped like an acquire's (never after the
-- other live holders'); a capped refresh never shortens the lease it had.
-- Reply: {1, expiry_ms, capped} refreshed; {0} lost; {-2, message} refused.
local key = KEYS[1]
local holder, leaseMs, asked = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local clientLeaseMs = tonumber(ARGV[4]) or 0
if redis.call('TYPE', key).ok ~= 'zset' then return {0} end
local current = redis.call('ZSCORE', key, holder)
if not current then return {0} end
local nowMs = zsetNowMs()
local unit, why = zsetUnit(key, asked, nowMs)
if not unit then return {-2, why} end
local lo, hi = zsetWindow(unit, nowMs)
if tonumber(current) <= lo or tonumber(current) >= hi then
    return {-2, holder .. "'s score " .. current .. ' in ' .. key .. ' is not a time in ' .. zsetUnitName(unit)}
end
local currentMs = zsetScoreMs(current, unit)
if currentMs <= nowMs then
    why = zsetPastUncertain(key, unit, nowMs)
    if why then return {-2, why} end
    redis.call('ZREM', key, holder)
    return {0}
end
local expiryMs, capped = zsetCappedExpiry(key, unit, nowMs, leaseMs, clientLeaseMs, holder)
if capped ~= 0 and expiryMs <= currentMs then return {1, currentMs, capped} end
redis.call('ZADD', key, 'XX', zsetScoreText(expiryMs, unit), holder)
return {1, expiryMs, capped}
