#!lua flags=no-writes
-- Redisson RPermitExpirableSemaphore: read both keys without reclaiming anything (KEYS: N,
-- {N}:timeout; ARGV: cap). Redisson's availablePermits() is a write (it reclaims and publishes);
-- this computes the same numbers from the raw keys instead.
-- Reply: {now_ms, type N, value (cut), length, pttl N, type timeout, card, {rawId, score, ...},
--         expired count}
local cap = tonumber(ARGV[1]) or 10000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ty = redis.call('TYPE', KEYS[1]).ok
local value, len, pttl = '', -1, -2
if ty == 'string' then
    len = redis.call('STRLEN', KEYS[1])
    value = redis.call('GETRANGE', KEYS[1], 0, 63)
end
if ty ~= 'none' then pttl = redis.call('PTTL', KEYS[1]) end
local tty = redis.call('TYPE', KEYS[2]).ok
local card, entries, expired = 0, {}, 0
if tty == 'zset' then
    card = redis.call('ZCARD', KEYS[2])
    entries = redis.call('ZRANGE', KEYS[2], 0, cap - 1, 'WITHSCORES')
    expired = redis.call('ZCOUNT', KEYS[2], 0, now)
end
return {now, ty, value, len, pttl, tty, card, entries, expired}
