-- Redisson RSemaphore: release permits on behalf of a holder that will never do it (KEYS: N; ARGV:
-- permits, observed available count or '', channel redisson_sc:{N}, publish command). Exactly
-- Redisson's release(): INCRBY, then PUBLISH the new count so waiting clients wake up. Compare-and-act:
-- nothing happens if the count is no longer the one the operator saw.
-- Reply: {1, new count} released; {3, current} changed; {-2, message}.
local ty = redis.call('TYPE', KEYS[1]).ok
if ty ~= 'string' and ty ~= 'none' then return {-2, KEYS[1] .. ' is a ' .. ty .. ', expected a string'} end
local current = redis.call('GET', KEYS[1])
if current and not tonumber(current) then return {-2, KEYS[1] .. ' does not hold an integer'} end
if ARGV[2] ~= '' and tonumber(current or '0') ~= tonumber(ARGV[2]) then return {3, current or '0'} end
local v = redis.call('INCRBY', KEYS[1], tonumber(ARGV[1]))
redis.call(ARGV[4], ARGV[3], v)
return {1, v}
