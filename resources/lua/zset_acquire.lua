-- zset: one acquire attempt on an expiring ZSET holder->expiry (KEYS: K; ARGV: holder, limit,
-- lease ms, unit 'ms' | 's' | 'auto'). Purges expired holders, then admits only while ZCARD < limit
-- (check before add: the seed's add-then-rank admits a short-lease newcomer over live holders).
-- 'auto' reads the unit from the scores present (|score - now_s| < 1e8 is seconds), else ms as the
-- seed writes them.
-- Reply: {1, expiry_ms, rank} granted; {0, expiry_ms} already held by this id;
--        {-1, earliest_expiry_ms or -1} full; {-2, message} unusable data.
local holder, limit, leaseMs, unit = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local ty = redis.call('TYPE', KEYS[1]).ok
if ty ~= 'zset' and ty ~= 'none' then return {-2, KEYS[1] .. ' is a ' .. ty .. ', expected a zset'} end
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if unit == 'auto' then
    unit = 'ms'
    local head = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
    if head[2] and math.abs(tonumber(head[2]) - nowMs / 1000) < 1e8 then unit = 's' end
end
local scale = unit == 's' and 1000 or 1
local now = nowMs / scale
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local mine = redis.call('ZSCORE', KEYS[1], holder)
if mine then return {0, math.floor(tonumber(mine) * scale)} end
if redis.call('ZCARD', KEYS[1]) >= limit then
    local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return {-1, head[2] and math.floor(tonumber(head[2]) * scale) or -1}
end
local expiryMs = nowMs + leaseMs
local score = unit == 's' and string.format('%.3f', expiryMs / 1000) or expiryMs
redis.call('ZADD', KEYS[1], score, holder)
return {1, expiryMs, redis.call('ZRANK', KEYS[1], holder)}
