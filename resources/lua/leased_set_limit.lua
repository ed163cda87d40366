-- leased: store a new limit (after leased_common.lua). Holders above a lowered limit keep their
-- leases; no new grant happens until the count drops below it. A raised limit goes to the queue.
-- ARGV: limit. Returns the previous limit or -1.
local old = stored_limit() or -1
ensure(1, 3, 4, 5)
purge_expired()
redis.call('HSET', KEYS[2], 'limit', ARGV[1])
redis.call('HSETNX', KEYS[2], 'fence', '0')
redis.call('HSETNX', KEYS[2], 'created', now_s)
hand_off(tonumber(ARGV[1]))
return old
