-- leased: remove expired holders and dead waiters now (after leased_common.lua), and hand the room
-- to the queue.
-- ARGV: release channel. Returns {holders removed, waiters removed}.
local now = now_ms()
local limit = stored_limit()
local gone, dead = purge_expired(now)
hand_off(now, limit, ARGV[1])
return {gone, dead}
