#!lua flags=no-writes,allow-cross-slot-keys
-- Discovery: fingerprint the given keys for kind recognition. KEYS: the keys (one slot on a
-- Cluster), or no KEYS and the keys as ARGV: on a Cluster node, keys of any of the slots that node
-- serves, read in one call (allow-cross-slot-keys); the server refuses a key the node does not
-- serve (or not yet, or no longer, during a migration) with an error, and the caller reads those
-- keys again per slot. Nothing is written, so a script stopped midway leaves nothing behind. Reads only
-- small, bounded samples so that huge or hostile values cost nothing: strings cut to 64 bytes,
-- at most 16 list items / hash fields (names cut to 256 bytes, values to 64), 8 ZSET entries.
-- Reply per key: {type, length, pttl, value, {members}, {values}}
local function cut(v, n)
    if #v > n then return string.sub(v, 1, n) end
    return v
end
local out = {}
local keys = KEYS
if #keys == 0 then keys = ARGV end
for i, k in ipairs(keys) do
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
