-- Redisson RPermitExpirableSemaphore: force-release one permit (KEYS: N, {N}:timeout; ARGV: raw
-- permit id, observed expiry score or '', channel redisson_sc:{N}, publish command). What Redisson's
-- release(id) does, as one script: ZREM the raw id, INCRBY N 1, PUBLISH the new count.
-- Reply: {1, new count} released; {2} gone; {3, current score} changed (lease updated);
--        {-2, message}.
local ty, tty = redis.call('TYPE', KEYS[1]).ok, redis.call('TYPE', KEYS[2]).ok
if tty == 'none' then return {2} end
if tty ~= 'zset' then return {-2, KEYS[2] .. ' is a ' .. tty .. ', expected a zset'} end
if ty ~= 'string' and ty ~= 'none' then return {-2, KEYS[1] .. ' is a ' .. ty .. ', expected a string'} end
if ty == 'string' and not tonumber(redis.call('GET', KEYS[1])) then return {-2, KEYS[1] .. ' does not hold an integer'} end
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not score then return {2} end
if ARGV[2] ~= '' and tonumber(score) ~= tonumber(ARGV[2]) then return {3, score} end
redis.call('ZREM', KEYS[2], ARGV[1])
local v = redis.call('INCRBY', KEYS[1], 1)
redis.call(ARGV[4], ARGV[3], v)
return {1, v}
