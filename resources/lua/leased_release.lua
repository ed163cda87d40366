-- leased: release by the holder itself (after leased_common.lua); the freed slot goes straight to
-- the head of the queue, if anyone waits. Expired leases of others are left to the next acquire,
-- which purges before it counts; the hand-off skips waiters that stopped renewing by itself.
-- ARGV: holder, token (empty: any), release channel.
-- Returns 1 released | 0 not held (expired or gone) | -1 held by a different acquisition.
local score = read(1, 'ZSCORE', ARGV[1])
if not score then
    return 0
end
local now = now_ms()
if tonumber(score) <= now then
    -- Its lease ran out: it held nothing any more to release.
    local limit = stored_limit()
    purge_expired(now)
    hand_off(now, limit, ARGV[3])
    return 0
end
if ARGV[2] ~= '' and owner_token(ARGV[1]) ~= ARGV[2] then
    return -1
end
remove_holder(now, stored_limit(), ARGV[3], ARGV[1])
return 1
