-- fair: force-release compare-and-act (KEYS: S, S:owner, S:counter; ARGV: holder, observed counter
-- or '', observed score in S or '', '1' when it was seen without an :owner entry).
-- Reply: {1} released; {2} gone; {3, current counter} changed (re-acquired); {-2, message}.
local holder, token = ARGV[1], ARGV[2]
local sType, oType = redis.call('TYPE', KEYS[1]).ok, redis.call('TYPE', KEYS[2]).ok
if sType ~= 'zset' and sType ~= 'none' then return {-2, KEYS[1] .. ' is a ' .. sType .. ', expected a zset'} end
if oType ~= 'zset' and oType ~= 'none' then return {-2, KEYS[2] .. ' is a ' .. oType .. ', expected a zset'} end
local owner = oType == 'zset' and redis.call('ZSCORE', KEYS[2], holder) or false
local score = sType == 'zset' and redis.call('ZSCORE', KEYS[1], holder) or false
if not owner and not score then return {2} end
if token ~= '' and (not owner or tonumber(owner) ~= tonumber(token)) then return {3, owner or ''} end
-- Seen without a counter (its :owner entry lost): the same acquisition only while it still has none
-- and keeps the acquire time seen.
if token == '' and (ARGV[4] == '1' and owner or ARGV[3] ~= '' and tonumber(score) ~= tonumber(ARGV[3])) then
    return {3, owner or score or ''}
end
if sType == 'zset' then redis.call('ZREM', KEYS[1], holder) end
if oType == 'zset' then redis.call('ZREM', KEYS[2], holder) end
return {1}
