-- slots: release a holder's slot, as the seed's release script does (HDEL, RPUSH the slot), and
-- drop its lease (KEYS: R|list, R|map, R|lease; ARGV: holder, slot or '' for any).
-- Reply: 1 released; 0 not held (or held with another slot: someone else's acquisition).
local holder, slot = ARGV[1], ARGV[2]
if redis.call('TYPE', KEYS[2]).ok ~= 'hash' then return 0 end
local current = redis.call('HGET', KEYS[2], holder)
if not current then return 0 end
if slot ~= '' and tonumber(current) ~= tonumber(slot) then return 0 end
redis.call('HDEL', KEYS[2], holder)
if redis.call('TYPE', KEYS[1]).ok ~= 'none' and redis.call('TYPE', KEYS[1]).ok ~= 'list' then return 1 end
redis.call('RPUSH', KEYS[1], tonumber(current) or current)
if redis.call('TYPE', KEYS[3]).ok == 'zset' then redis.call('ZREM', KEYS[3], holder) end
return 1
