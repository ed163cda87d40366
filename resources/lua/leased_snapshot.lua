#!lua flags=no-writes
-- leased: one consistent read of every key (see leased_common.lua for the layout), with "now" from
-- TIME. Keys of the wrong type are reported, not read. At most ARGV[1] entries per key are returned;
-- the counts tell the reader when a list was cut.
-- Returns {now, {type1..type5}, meta HGETALL, holders ZRANGE WITHSCORES, {owner records parallel to
--          holders}, queue LRANGE, {waiter records parallel to the queue}, {holders, owners, queue}
--          counts, {waiter records of holders, parallel to holders: hand-offs not picked up yet}}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cap = tonumber(ARGV[1]) - 1
local expected = {'zset', 'hash', 'hash', 'list', 'hash'}
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
-- The field of `key` for every `step`-th id of `ids` (false where missing): records parallel to a
-- list (step 1) or to a WITHSCORES reply (step 2).
local function fields_of(key, ids, step)
    local out = {}
    for i = 1, #ids, step do
        out[#out + 1] = redis.call('HGET', key, ids[i]) or false
    end
    return out
end
local holders, records, queue, waiting, marks = {}, {}, {}, {}, {}
local counts = {0, 0, 0}
if ok[1] then
    holders = redis.call('ZRANGE', KEYS[1], 0, cap, 'WITHSCORES')
    counts[1] = redis.call('ZCARD', KEYS[1])
end
if ok[3] then
    counts[2] = redis.call('HLEN', KEYS[3])
    records = fields_of(KEYS[3], holders, 2)
end
if ok[4] then
    queue = redis.call('LRANGE', KEYS[4], 0, cap)
    counts[3] = redis.call('LLEN', KEYS[4])
end
if ok[5] then
    waiting = fields_of(KEYS[5], queue, 1)
    marks = fields_of(KEYS[5], holders, 2)
end
return {string.format('%.0f', now), types, meta, holders, records, queue, waiting, counts, marks}
