-- Redisson RLock: force-unlock (KEYS: N; ARGV: observed holder field, channel
-- redisson_lock__channel:{N}, publish command). Redisson's forceUnlock(): DEL and publish the
-- unlock message 0 so waiters retry — but only while the holder the operator saw still holds it.
-- Reply: {1} released; {2} gone; {3} changed (another holder now); {-2, message}.
local ty = redis.call('TYPE', KEYS[1]).ok
if ty == 'none' then return {2} end
if ty ~= 'hash' then return {-2, KEYS[1] .. ' is a ' .. ty .. ', expected a hash'} end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return {3} end
redis.call('DEL', KEYS[1])
redis.call(ARGV[3], ARGV[2], 0)
return {1}
