-- zset: remove expired holders (KEYS: K; ARGV: unit 'ms' | 's' | 'auto'). Reply: number removed.
if redis.call('TYPE', KEYS[1]).ok ~= 'zset' then return 0 end
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local unit = ARGV[1]
if unit == 'auto' then
    unit = 'ms'
    local head = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
    if head[2] and math.abs(tonumber(head[2]) - nowMs / 1000) < 1e8 then unit = 's' end
end
return redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', unit == 's' and nowMs / 1000 or nowMs)
