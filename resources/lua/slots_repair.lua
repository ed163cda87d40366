-- slots: repair (KEYS: R|list, R|map, R|lease; ARGV: limit N, 0 = infer it as the snapshot does).
-- Rebuilds the free list so that every slot 1..N is either held (in the map) or free (in the list)
-- exactly once: drops duplicates, garbage and slots that are also held, and re-pushes leaked slots
-- (missing from both). Holders are never touched.
-- Reply: {changes, message} or {-2, message} when the keys are of the wrong type.
local listType = redis.call('TYPE', KEYS[1]).ok
local mapType = redis.call('TYPE', KEYS[2]).ok
if listType ~= 'list' and listType ~= 'none' then return {-2, KEYS[1] .. ' is a ' .. listType .. ', expected a list'} end
if mapType ~= 'hash' and mapType ~= 'none' then return {-2, KEYS[2] .. ' is a ' .. mapType .. ', expected a hash'} end
local held = {}
local heldCount, maxSlot = 0, 0
if mapType == 'hash' then
    local kv = redis.call('HGETALL', KEYS[2])
    for i = 2, #kv, 2 do
        local s = tonumber(kv[i])
        if s and not held[s] then
            held[s] = true
            heldCount = heldCount + 1
            if s > maxSlot then maxSlot = s end
        end
    end
end
local items = {}
if listType == 'list' then items = redis.call('LRANGE', KEYS[1], 0, -1) end
local free, order = {}, {}
local dropped = 0
for _, v in ipairs(items) do
    local s = tonumber(v)
    if s and s >= 1 and s == math.floor(s) and not held[s] and not free[s] then
        free[s] = true
        order[#order + 1] = s
        if s > maxSlot then maxSlot = s end
    else
        dropped = dropped + 1
    end
end
local limit = tonumber(ARGV[1]) or 0
-- Without a limit, N is what the snapshot infers: the highest slot number seen, or the number of
-- distinct slots if that is larger.
if limit <= 0 then limit = math.max(maxSlot, heldCount + #order) end
local pushed = 0
for s = 1, limit do
    if not held[s] and not free[s] then
        order[#order + 1] = s
        pushed = pushed + 1
    end
end
if dropped == 0 and pushed == 0 then return {0, 'nothing to repair'} end
redis.call('DEL', KEYS[1])
if #order > 0 then redis.call('RPUSH', KEYS[1], unpack(order)) end
return {dropped + pushed, 'dropped ' .. dropped .. ' bad or duplicate free slots, re-pushed ' .. pushed .. ' leaked slots'}
