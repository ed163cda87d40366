-- leased: release by the holder itself (after leased_common.lua); the freed slot goes straight to
-- the head of the queue, if anyone waits.
-- ARGV: holder, token (empty: any), release channel.
-- Returns 1 released | 0 not held (expired or gone) | -1 held by a different acquisition.
local now = now_ms()
local limit = stored_limit()
local gone = purge_expired(now)
if not read(1, 'ZSCORE', ARGV[1]) then
    if gone > 0 then
        hand_off(now, limit, ARGV[3])
    end
    return 0
end
if ARGV[2] ~= '' and owner_token(ARGV[1]) ~= ARGV[2] then
    if gone > 0 then
        hand_off(now, limit, ARGV[3])
    end
    return -1
end
remove_holder(now, limit, ARGV[3], ARGV[1])
return 1
