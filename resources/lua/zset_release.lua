-- zset / node-semaphore: release (KEYS: K; ARGV: holder). Reply: 1 released; 0 not held.
if redis.call('TYPE', KEYS[1]).ok ~= 'zset' then return 0 end
return redis.call('ZREM', KEYS[1], ARGV[1])
