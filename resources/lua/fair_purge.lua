-- fair: purge timed-out holders, the first round trip of the book's acquire without acquiring
-- (KEYS: S, S:owner, S:counter; ARGV: timeout ms). Reply: number of holders removed.
if redis.call('TYPE', KEYS[1]).ok ~= 'zset' then return 0 end
local oType = redis.call('TYPE', KEYS[2]).ok
if oType ~= 'zset' and oType ~= 'none' then return 0 end
local t = redis.call('TIME')
local nowS = tonumber(t[1]) + tonumber(t[2]) / 1000000
local n = redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowS - tonumber(ARGV[1]) / 1000)
redis.call('ZINTERSTORE', KEYS[2], 2, KEYS[2], KEYS[1], 'WEIGHTS', 1, 0)
return n
