-- slots: force-release compare-and-act (KEYS: R|list, R|map, R|lease; ARGV: holder, observed slot).
-- Only removes the holder if it still has the slot the operator saw. The slot goes back to the free
-- list unless it is already there (LPOS), so a corrupted semaphore is not made worse.
-- Reply: {1} released; {2} gone; {3, current slot} changed; {-2, message} unusable data.
local holder, slot = ARGV[1], ARGV[2]
local mapType = redis.call('TYPE', KEYS[2]).ok
if mapType == 'none' then return {2} end
if mapType ~= 'hash' then return {-2, KEYS[2] .. ' is a ' .. mapType .. ', expected a hash'} end
local current = redis.call('HGET', KEYS[2], holder)
if not current then return {2} end
if current ~= slot then return {3, current} end
redis.call('HDEL', KEYS[2], holder)
local listType = redis.call('TYPE', KEYS[1]).ok
if (listType == 'list' or listType == 'none') and tonumber(current) then
    if redis.call('LPOS', KEYS[1], current) == false then redis.call('RPUSH', KEYS[1], tonumber(current)) end
end
if redis.call('TYPE', KEYS[3]).ok == 'zset' then redis.call('ZREM', KEYS[3], holder) end
return {1}
