-- leased: a waiter gives up (timeout or cancel) and leaves the queue (after leased_common.lua).
-- ARGV: waiter id, release channel. Returns 1 if it was queued.
local bad = wrong_type()
if bad then
    return redis.error_reply(bad)
end
local removed = redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
if removed > 0 then
    -- Waiters behind it may have been held back only by it.
    wake_eligible(stored_limit(), ARGV[2])
end
return removed
