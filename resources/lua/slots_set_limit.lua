-- slots: set the limit N (KEYS: R|list, R|map, R|lease; ARGV: N).
-- The layout stores its limit as HLEN + LLEN: every slot 1..N is either held (map) or free (list),
-- once. This rebuilds the free list for the new N in one step: the free slots up to N keep their
-- order (duplicates, garbage and slots that are also held are dropped, as repair would), the slots
-- up to N that are neither free nor held are appended, and free slots above N go. A held slot above
-- N cannot be taken from its holder: then nothing changes and the reply names the slots.
-- An uninitialised semaphore is created with 1..N and semscope's lease marker, exactly as if
-- semscope's acquire had created it.
-- Reply: {previous HLEN+LLEN, N, added, removed, dropped, owned} or {-1, held slots above N}
--        or {-2, message} (keys of the wrong type, bad N).
local MARK = 'semscope:owned'
local limit = tonumber(ARGV[1])
if not limit or limit < 1 or limit ~= math.floor(limit) or limit > 1000000 then
    return {-2, 'the limit must be a whole number from 1 to 1000000'}
end
local listType = redis.call('TYPE', KEYS[1]).ok
local mapType = redis.call('TYPE', KEYS[2]).ok
local leaseType = redis.call('TYPE', KEYS[3]).ok
if listType ~= 'list' and listType ~= 'none' then return {-2, KEYS[1] .. ' is a ' .. listType .. ', expected a list'} end
if mapType ~= 'hash' and mapType ~= 'none' then return {-2, KEYS[2] .. ' is a ' .. mapType .. ', expected a hash'} end
if leaseType ~= 'zset' and leaseType ~= 'none' then return {-2, KEYS[3] .. ' is a ' .. leaseType .. ', expected a zset'} end
local fresh = listType == 'none' and mapType == 'none'
local held, above = {}, {}
local mapLen = 0
if mapType == 'hash' then
    mapLen = redis.call('HLEN', KEYS[2])
    local kv = redis.call('HGETALL', KEYS[2])
    for i = 2, #kv, 2 do
        local s = tonumber(kv[i])
        if s then
            held[s] = true
            if s > limit then above[#above + 1] = kv[i] end
        end
    end
end
if #above > 0 then
    table.sort(above, function(a, b) return tonumber(a) < tonumber(b) end)
    return {-1, table.concat(above, ', ')}
end
local items = {}
if listType == 'list' then items = redis.call('LRANGE', KEYS[1], 0, -1) end
local free, order = {}, {}
local removed, dropped, added = 0, 0, 0
for _, v in ipairs(items) do
    local s = tonumber(v)
    if s and s >= 1 and s == math.floor(s) and not held[s] and not free[s] then
        free[s] = true
        if s <= limit then order[#order + 1] = s else removed = removed + 1 end
    else
        dropped = dropped + 1
    end
end
for s = 1, limit do
    if not held[s] and not free[s] then
        order[#order + 1] = s
        added = added + 1
    end
end
local owned = fresh or (leaseType == 'zset' and redis.call('ZSCORE', KEYS[3], MARK) ~= false)
if added + removed + dropped > 0 then
    redis.call('DEL', KEYS[1])
    for i = 1, #order, 1000 do
        redis.call('RPUSH', KEYS[1], unpack(order, i, math.min(i + 999, #order)))
    end
end
if fresh then redis.call('ZADD', KEYS[3], '+inf', MARK) end
return {mapLen + #items, limit, added, removed, dropped, owned and 1 or 0}
