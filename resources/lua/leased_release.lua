-- leased: release by the holder itself (after leased_common.lua).
-- ARGV: holder, token (empty: any), release channel.
-- Returns 1 released | 0 not held (expired or gone) | -1 held by a different acquisition.
local bad = wrong_type()
if bad then
    return redis.error_reply(bad)
end
local now = now_ms()
local gone, dead = purge_expired(now)
local limit = stored_limit()
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    if gone + dead > 0 then
        wake_eligible(limit, ARGV[3])
    end
    return 0
end
if ARGV[2] ~= '' and owner_token(ARGV[1]) ~= ARGV[2] then
    return -1
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
wake_eligible(limit, ARGV[3])
return 1
