-- leased: a waiter gives up (timeout or cancel) and leaves the queue (after leased_common.lua).
-- A release may have handed it a slot just before it gave up (the grant message still on its way):
-- that slot is given back at once, so it is neither leaked until its lease ends nor used by nobody.
-- ARGV: waiter id, its queue ticket (-1: unknown; then a handed slot is left to its lease).
-- Returns 1 left the queue | 2 gave back a slot handed to it | 0 was neither queued nor handed one.
local limit = stored_limit()
ensure(3, 4, 5)
local gone = purge_expired()
local w = ARGV[1]
local ticket = parse_waiting(redis.call('HGET', KEYS[5], w))
if ticket then
    if not redis.call('ZSCORE', KEYS[1], w) then
        redis.call('LREM', KEYS[4], '0', w)
        redis.call('HDEL', KEYS[5], w)
        -- Waiters behind it may have been held back only by it.
        hand_off(limit)
        return 1
    end
    if ticket == ARGV[2] then
        remove_holder(limit, w)
        return 2
    end
end
if gone > 0 then
    hand_off(limit)
end
return 0
