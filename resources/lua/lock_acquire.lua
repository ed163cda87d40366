-- lock: SET KEYS[1] token NX PX ttl, and on failure who holds it, in one step.
-- ARGV: token, ttl ms, how many bytes of a foreign value to return.
-- Returns {1, now, expiresAt} | {0, now, value (first bytes), pttl, full length}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return {1, string.format('%.0f', now), string.format('%.0f', now + tonumber(ARGV[2]))}
end
local kind = redis.call('TYPE', KEYS[1]).ok
if kind ~= 'string' then
    return redis.error_reply('WRONGTYPE ' .. KEYS[1] .. ' is a ' .. kind .. ', expected a string')
end
local len = redis.call('STRLEN', KEYS[1])
return {0, string.format('%.0f', now), redis.call('GETRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1),
        redis.call('PTTL', KEYS[1]), len}
