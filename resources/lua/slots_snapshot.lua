#!lua flags=no-writes
-- slots: one consistent read of a slot semaphore (KEYS: R|list, R|map, R|lease; ARGV: cap).
-- Never fails on bad data: a key of the wrong type is reported by its type and not read, long values
-- are cut to 64 bytes (with their full length; holder ids to 1024) so a 10 MB value does not travel.
-- Reply: {now_ms, listType, mapType, leaseType, listLen, mapLen, {list items}, {field, value, len, ...},
--         {member, score, ...}}
local cap = tonumber(ARGV[1]) or 10000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local listType = redis.call('TYPE', KEYS[1]).ok
local mapType = redis.call('TYPE', KEYS[2]).ok
local leaseType = redis.call('TYPE', KEYS[3]).ok
local function cut(v, n)
    n = n or 64
    if #v > n then return string.sub(v, 1, n) end
    return v
end
local listLen, mapLen, items, map, lease = 0, 0, {}, {}, {}
if listType == 'list' then
    listLen = redis.call('LLEN', KEYS[1])
    for i, v in ipairs(redis.call('LRANGE', KEYS[1], 0, cap - 1)) do
        items[i] = cut(v)
    end
end
if mapType == 'hash' then
    mapLen = redis.call('HLEN', KEYS[2])
    local cursor, n = '0', 0
    repeat
        local page = redis.call('HSCAN', KEYS[2], cursor, 'COUNT', 1000)
        cursor = page[1]
        local kv = page[2]
        for i = 1, #kv, 2 do
            if n < cap then
                map[#map + 1] = cut(kv[i], 1024) -- holder ids: long enough for any real one
                map[#map + 1] = cut(kv[i + 1])
                map[#map + 1] = #kv[i + 1]
                n = n + 1
            end
        end
    until cursor == '0' or n >= cap
end
if leaseType == 'zset' then
    lease = redis.call('ZRANGE', KEYS[3], 0, cap - 1, 'WITHSCORES')
end
return {now, listType, mapType, leaseType, listLen, mapLen, items, map, lease}
