-- leased: remove expired holders and dead waiters now (after leased_common.lua and
-- leased_maintenance.lua), and hand the room to the queue.
-- Returns {holders removed, waiters removed}.
local limit = stored_limit()
ensure(1, 3, 4, 5)
local gone = purge_expired()
local dead = rebuild_queue(true)
hand_off(limit)
return {gone, dead}
