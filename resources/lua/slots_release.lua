-- slots: release a holder's slot, as the seed's release script does (HDEL, RPUSH the slot), and
-- drop its lease and token (KEYS: R|list, R|map, R|lease; ARGV: holder, slot or '' for any, token of
-- the acquisition or '' if it had none).
-- Reply: 1 released; 0 not held (or held by another acquisition: other slot or other token).
local holder, slot, token = ARGV[1], ARGV[2], ARGV[3] or ''
if redis.call('TYPE', KEYS[2]).ok ~= 'hash' then return 0 end
local current = redis.call('HGET', KEYS[2], holder)
if not current or not isSameAcquisition(holder, current, slot, token) then return 0 end
local listType = redis.call('TYPE', KEYS[1]).ok
if listType ~= 'none' and listType ~= 'list' then
    redis.call('HDEL', KEYS[2], holder)
    forget(holder)
    return 1
end
giveBack(holder, current)
return 1
