-- zset: one acquire attempt on an expiring ZSET holder->expiry (after zset_common.lua; KEYS: K;
-- ARGV: holder, limit, lease ms, unit 'ms' | 's' | 'auto', the clients' lease ms or 0 if unknown).
-- Purges the holders that have certainly expired, then admits only while ZCARD < limit (check before
-- add: the seed's add-then-rank admits a short-lease newcomer over live holders). The new member is
-- scored in the unit the set already uses, its lease capped so that it never ends after the live
-- holders' (see zsetCappedExpiry).
-- Reply: {1, expiry_ms, rank, capped} granted (capped: see zsetCappedExpiry);
--        {0, expiry_ms} already held by this id; {-1, earliest_expiry_ms or -1} full;
--        {-2, message} refused (unusable data, or expiries that are not certain).
local key = KEYS[1]
local holder, limit, leaseMs, asked = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local clientLeaseMs = tonumber(ARGV[5]) or 0
local ty = redis.call('TYPE', key).ok
if ty ~= 'zset' and ty ~= 'none' then return {-2, key .. ' is a ' .. ty .. ', expected a zset'} end
local nowMs = zsetNowMs()
local unit, why = zsetUnit(key, asked, nowMs)
if not unit then return {-2, why} end
why = zsetPastUncertain(key, unit, nowMs)
if why then return {-2, why} end
zsetPurge(key, unit, nowMs)
local mine = redis.call('ZSCORE', key, holder)
if mine then return {0, zsetScoreMs(mine, unit)} end
if redis.call('ZCARD', key) >= limit then
    local _, hi = zsetWindow(unit, nowMs)
    local head = redis.call('ZRANGEBYSCORE', key, '(' .. zsetNum(zsetNow(unit, nowMs)), '(' .. zsetNum(hi),
        'WITHSCORES', 'LIMIT', 0, 1)
    return {-1, head[2] and zsetScoreMs(head[2], unit) or -1}
end
local expiryMs, capped = zsetCappedExpiry(key, unit, nowMs, leaseMs, clientLeaseMs, holder)
if expiryMs <= nowMs then
    return {-2, 'the live holders of ' .. key .. ' expire now: a lease capped at theirs would be empty'}
end
redis.call('ZADD', key, zsetScoreText(expiryMs, unit), holder)
return {1, expiryMs, redis.call('ZRANK', key, holder), capped}
