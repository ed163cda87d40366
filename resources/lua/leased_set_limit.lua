-- leased: store a new limit (after leased_common.lua). Holders above a lowered limit keep their
-- leases; no new grant happens until the count drops below it.
-- ARGV: limit, release channel. Returns the previous limit or -1.
local bad = wrong_type()
if bad then
    return redis.error_reply(bad)
end
local old = stored_limit() or -1
redis.call('HSET', KEYS[2], 'limit', ARGV[1])
redis.call('HSETNX', KEYS[2], 'fence', 0)
redis.call('HSETNX', KEYS[2], 'created', num(now_ms()))
wake_eligible(tonumber(ARGV[1]), ARGV[2])
return old
