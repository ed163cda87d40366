-- leased: store a new limit (after leased_common.lua). Holders above a lowered limit keep their
-- leases; no new grant happens until the count drops below it. A raised limit goes to the queue.
-- ARGV: limit, release channel. Returns the previous limit or -1.
local now = now_ms()
local old = stored_limit() or -1
purge_expired(now)
redis.call('HSET', KEYS[2], 'limit', ARGV[1])
redis.call('HSETNX', KEYS[2], 'fence', '0')
redis.call('HSETNX', KEYS[2], 'created', num(now))
hand_off(now, tonumber(ARGV[1]), ARGV[2])
return old
