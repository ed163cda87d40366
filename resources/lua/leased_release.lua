-- leased: release by the holder itself (after leased_common.lua); the freed slot goes straight to
-- the head of the queue, if anyone waits. Expired leases of others are left to the next acquire,
-- which purges before it counts; the hand-off skips waiters that stopped renewing by itself.
-- ARGV: holder, token (empty: any), notify tag of the caller's store ('' = none).
-- Returns 1 released | 0 not held (expired or gone) | -1 held by a different acquisition
--       | {1, hand-off, ...} released, and the slot went to a waiter of the caller's own store: the
--         hand-off message is here instead of published (see leased_common.lua).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then
    return 0
end
if tonumber(score) <= now then
    -- Its lease ran out: it held nothing any more to release.
    local limit = stored_limit()
    purge_expired()
    hand_off(limit)
    return 0
end
if ARGV[2] == '' then
    ensure(3)
elseif record_token(redis.call('HGET', KEYS[3], ARGV[1])) ~= ARGV[2] then
    return -1
end
local replies = {1}
-- The limit is read by remove_holder only when somebody queues for the slot.
remove_holder(nil, ARGV[1], ARGV[3], replies)
if #replies == 1 then
    return 1
end
return replies
