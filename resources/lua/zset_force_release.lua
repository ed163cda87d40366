-- zset / node-semaphore: force-release compare-and-act (KEYS: K; ARGV: holder, observed score or '').
-- A holder that re-acquired or refreshed since the operator looked has another score: changed.
-- Reply: {1} released; {2} gone; {3, current score} changed; {-2, message}.
local ty = redis.call('TYPE', KEYS[1]).ok
if ty == 'none' then return {2} end
if ty ~= 'zset' then return {-2, KEYS[1] .. ' is a ' .. ty .. ', expected a zset'} end
local current = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not current then return {2} end
if ARGV[2] ~= '' and tonumber(current) ~= tonumber(ARGV[2]) then return {3, current} end
redis.call('ZREM', KEYS[1], ARGV[1])
return {1}
