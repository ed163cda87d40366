-- fair: release (KEYS: S, S:owner, S:counter; ARGV: holder, counter of the grant or '').
-- ZREM from both, as the book does; an entry of a newer acquisition (other counter) is left alone.
-- Reply: 1 released; 0 not held (timed out or never acquired).
local holder, token = ARGV[1], ARGV[2]
if redis.call('TYPE', KEYS[1]).ok ~= 'zset' and redis.call('TYPE', KEYS[2]).ok ~= 'zset' then return 0 end
if token ~= '' and redis.call('TYPE', KEYS[2]).ok == 'zset' then
    local owner = redis.call('ZSCORE', KEYS[2], holder)
    if owner and tonumber(owner) ~= tonumber(token) then return 0 end
end
local removed = 0
if redis.call('TYPE', KEYS[1]).ok == 'zset' then removed = redis.call('ZREM', KEYS[1], holder) end
if redis.call('TYPE', KEYS[2]).ok == 'zset' then redis.call('ZREM', KEYS[2], holder) end
return removed
