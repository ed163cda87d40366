-- leased: operator force-release, compare-and-act (after leased_common.lua).
-- ARGV: raw holder id, observed token, release channel.
-- Returns {'released'} | {'gone'} | {'changed', current token or ''}
local bad = wrong_type()
if bad then
    return redis.error_reply(bad)
end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    return {'gone'}
end
local token = owner_token(ARGV[1])
if token ~= ARGV[2] then
    return {'changed', token or ''}
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
wake_eligible(stored_limit(), ARGV[3])
return {'released'}
