#!lua flags=no-writes
-- zset (and node-semaphore): one consistent read of a ZSET of holders (KEYS: K; ARGV: cap).
-- Reply: {now_ms, type, card, {member, score, ...}, pttl}
local cap = tonumber(ARGV[1]) or 10000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ty = redis.call('TYPE', KEYS[1]).ok
local card, entries, pttl = 0, {}, -2
if ty == 'zset' then
    card = redis.call('ZCARD', KEYS[1])
    entries = redis.call('ZRANGE', KEYS[1], 0, cap - 1, 'WITHSCORES')
end
if ty ~= 'none' then pttl = redis.call('PTTL', KEYS[1]) end
return {now, ty, card, entries, pttl}
