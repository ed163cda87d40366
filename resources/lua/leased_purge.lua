-- leased: remove expired holders and dead waiters now (after leased_common.lua).
-- ARGV: release channel. Returns {holders removed, waiters removed}.
local bad = wrong_type()
if bad then
    return redis.error_reply(bad)
end
local gone, dead = purge_expired(now_ms())
if gone + dead > 0 then
    wake_eligible(stored_limit(), ARGV[1])
end
return {gone, dead}
