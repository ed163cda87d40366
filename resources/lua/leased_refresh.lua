-- leased: extend a lease that is still held (after leased_common.lua). Never re-acquires.
-- ARGV: holder, token (empty: any), ttl ms, release channel.
-- Returns {1, expiresAt} | {0, 'expired' | 'gone' | 'token'}
local now = now_ms()
local score = read(1, 'ZSCORE', ARGV[1])
if not score then
    return {0, 'gone'}
end
if tonumber(score) <= now then
    local limit = stored_limit()
    purge_expired(now)
    hand_off(now, limit, ARGV[4])
    return {0, 'expired'}
end
if ARGV[2] ~= '' and owner_token(ARGV[1]) ~= ARGV[2] then
    return {0, 'token'}
end
local expires = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], 'XX', num(expires), ARGV[1])
return {1, num(expires)}
