#!lua flags=no-writes
-- leased: one consistent read of every key (see leased_common.lua for the layout), with "now" from
-- TIME. Keys of the wrong type are reported, not read. At most ARGV[1] entries per key are returned;
-- the counts tell the reader when a list was cut.
-- Returns {now, {type1..type6}, meta HGETALL, holders ZRANGE WITHSCORES, {owner records parallel to
--          holders}, waiters WITHSCORES, waiter leases WITHSCORES, {holders, owners, waiters} counts}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cap = tonumber(ARGV[1]) - 1
local expected = {'zset', 'hash', 'hash', 'zset', 'zset', 'hash'}
local types = {}
local ok = {}
for i, k in ipairs(KEYS) do
    types[i] = redis.call('TYPE', k).ok
    ok[i] = types[i] == expected[i]
end
local meta = {}
if ok[2] then
    meta = redis.call('HGETALL', KEYS[2])
end
local holders, records, waiters, leases = {}, {}, {}, {}
local counts = {0, 0, 0}
if ok[1] then
    holders = redis.call('ZRANGE', KEYS[1], 0, cap, 'WITHSCORES')
    counts[1] = redis.call('ZCARD', KEYS[1])
end
if ok[3] then
    counts[2] = redis.call('HLEN', KEYS[3])
    for i = 1, #holders, 2 do
        records[#records + 1] = redis.call('HGET', KEYS[3], holders[i]) or false
    end
end
if ok[4] then
    waiters = redis.call('ZRANGE', KEYS[4], 0, cap, 'WITHSCORES')
    counts[3] = redis.call('ZCARD', KEYS[4])
end
if ok[5] then
    leases = redis.call('ZRANGE', KEYS[5], 0, cap, 'WITHSCORES')
end
return {string.format('%.0f', now), types, meta, holders, records, waiters, leases, counts}
