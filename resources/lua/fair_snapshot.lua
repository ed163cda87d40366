#!lua flags=no-writes
-- fair: one consistent read of a Redis in Action fair semaphore (KEYS: S, S:owner, S:counter, lock:S;
-- ARGV: cap). Wrong types are reported, not read; the counter and lock values are cut to 64 bytes.
-- Reply: {now_ms, sType, ownerType, counterType, lockType, {member, score, ...} of S,
--         {member, score, ...} of S:owner, counter or '', counter length, lock pttl, sCard, ownerCard}
local cap = tonumber(ARGV[1]) or 10000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local types = {}
for i = 1, 4 do types[i] = redis.call('TYPE', KEYS[i]).ok end
local times, owners, counter, counterLen, lockTtl, sCard, ownerCard = {}, {}, '', -1, -2, 0, 0
if types[1] == 'zset' then
    times = redis.call('ZRANGE', KEYS[1], 0, cap - 1, 'WITHSCORES')
    sCard = redis.call('ZCARD', KEYS[1])
end
if types[2] == 'zset' then
    owners = redis.call('ZRANGE', KEYS[2], 0, cap - 1, 'WITHSCORES')
    ownerCard = redis.call('ZCARD', KEYS[2])
end
if types[3] == 'string' then
    counterLen = redis.call('STRLEN', KEYS[3])
    counter = redis.call('GETRANGE', KEYS[3], 0, 63)
end
if types[4] ~= 'none' then lockTtl = redis.call('PTTL', KEYS[4]) end
return {now, types[1], types[2], types[3], types[4], times, owners, counter, counterLen, lockTtl, sCard, ownerCard}
