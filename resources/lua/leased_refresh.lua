-- leased: extend a lease that is still held (after leased_common.lua). Never re-acquires.
-- ARGV: holder, token (empty: any), ttl ms.
-- Returns {1, expiresAt} | {0, 'expired' | 'gone' | 'token'}
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then
    return {0, 'gone'}
end
if tonumber(score) <= now then
    local limit = stored_limit()
    purge_expired()
    hand_off(limit)
    return {0, 'expired'}
end
if ARGV[2] ~= '' and record_token(redis.call('HGET', KEYS[3], ARGV[1])) ~= ARGV[2] then
    return {0, 'token'}
end
local expires = num(now + tonumber(ARGV[3]))
redis.call('ZADD', KEYS[1], 'XX', expires, ARGV[1])
return {1, expires}
