#!lua flags=no-writes
-- Discovery: fingerprint the given keys for kind recognition (KEYS: the keys; no ARGV). Reads only
-- small, bounded samples so that huge or hostile values cost nothing: strings cut to 64 bytes,
-- at most 16 list items / hash fields (names cut to 256 bytes, values to 64), 8 ZSET entries.
-- Reply per key: {type, length, pttl, value, {members}, {values}}
local function cut(v, n)
    if #v > n then return string.sub(v, 1, n) end
    return v
end
local out = {}
for i, k in ipairs(KEYS) do
    local ty = redis.call('TYPE', k).ok
    local len, pttl, value, members, values = -1, -2, '', {}, {}
    if ty ~= 'none' then pttl = redis.call('PTTL', k) end
    if ty == 'string' then
        len = redis.call('STRLEN', k)
        value = redis.call('GETRANGE', k, 0, 63)
    elseif ty == 'list' then
        len = redis.call('LLEN', k)
        for j, v in ipairs(redis.call('LRANGE', k, 0, 15)) do members[j] = cut(v, 64) end
    elseif ty == 'hash' then
        len = redis.call('HLEN', k)
        local page = redis.call('HSCAN', k, 0, 'COUNT', 16)[2]
        for j = 1, #page, 2 do
            if #members < 16 then
                members[#members + 1] = cut(page[j], 256)
                values[#values + 1] = cut(page[j + 1], 64)
            end
        end
    elseif ty == 'zset' then
        len = redis.call('ZCARD', k)
        local page = redis.call('ZRANGE', k, 0, 7, 'WITHSCORES')
        for j = 1, #page, 2 do
            members[#members + 1] = cut(page[j], 256)
            values[#values + 1] = page[j + 1]
        end
    end
    out[i] = {ty, len, pttl, value, members, values}
end
return out
