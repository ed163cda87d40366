-- leased: a waiter gives up (timeout or cancel) and leaves the queue (after leased_common.lua).
-- A release may have handed it a slot just before it gave up (the grant message still on its way):
-- that slot is given back at once, so it is neither leaked until its lease ends nor used by nobody.
-- ARGV: waiter id, release channel, its queue ticket (-1: unknown; then a handed slot is left to
-- its lease).
-- Returns 1 left the queue | 2 gave back a slot handed to it | 0 was neither queued nor handed one.
local now = now_ms()
local limit = stored_limit()
local gone = purge_expired(now)
local w = ARGV[1]
if read(4, 'ZREM', w) == 1 then
    redis.call('ZREM', KEYS[5], w)
    read(6, 'HDEL', w)
    -- Waiters behind it may have been held back only by it.
    hand_off(now, limit, ARGV[2])
    return 1
end
if ARGV[3] ~= '-1' and read(6, 'HGET', w) == '=' .. ARGV[3] and read(1, 'ZSCORE', w) then
    remove_holder(now, limit, ARGV[2], w)
    return 2
end
if gone > 0 then
    hand_off(now, limit, ARGV[2])
end
return 0
