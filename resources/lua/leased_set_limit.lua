-- leased: store a new limit (after leased_common.lua and leased_maintenance.lua). Holders above a
-- lowered limit keep their leases; no new grant happens until the count drops below it. A raised
-- limit goes to the queue. A meta lost with holders on record gets its counters back first, above
-- every token on record, so the limit it restores never comes with repeated tokens.
-- ARGV: limit. Returns the previous limit or -1.
local old = read_meta() or -1
ensure(1, 3, 4, 5)
raise_counters()
purge_expired()
redis.call('HSET', KEYS[2], 'limit', ARGV[1])
redis.call('HSETNX', KEYS[2], 'fence', fence_start())
redis.call('HSETNX', KEYS[2], 'created', now_s)
hand_off(tonumber(ARGV[1]))
return old
