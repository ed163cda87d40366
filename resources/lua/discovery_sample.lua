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
    -- A read that came back shorter than its bound saw the whole value, and says its length: the
    -- length is asked only of bigger values (a call less per key; most semaphore keys are small).
    if ty == 'string' then
        value = redis.call('GETRANGE', k, 0, 63)
        if #value < 64 then len = #value else len = redis.call('STRLEN', k) end
    elseif ty == 'list' then
        local items = redis.call('LRANGE', k, 0, 15)
        for j, v in ipairs(items) do members[j] = cut(v, 64) end
        if #items < 16 then len = #items else len = redis.call('LLEN', k) end
    elseif ty == 'hash' then
        local reply = redis.call('HSCAN', k, 0, 'COUNT', 16)
        local page = reply[2]
        for j = 1, #page, 2 do
            if #members < 16 then
                members[#members + 1] = cut(page[j], 256)
                values[#values + 1] = cut(page[j + 1], 64)
            end
        end
        -- Cursor 0: that one call walked the whole hash (a small hash always comes whole).
        if reply[1] == '0' then len = #page / 2 else len = redis.call('HLEN', k) end
    elseif ty == 'zset' then
        local page = redis.call('ZRANGE', k, 0, 7, 'WITHSCORES')
        for j = 1, #page, 2 do
            members[#members + 1] = cut(page[j], 256)
            values[#values + 1] = page[j + 1]
        end
        if #page < 16 then len = #page / 2 else len = redis.call('ZCARD', k) end
    end
    out[i] = {ty, len, pttl, value, members, values}
end
return out
