-- leased: operator force-release, compare-and-act (after leased_common.lua); the freed slot goes to
-- the head of the queue.
-- ARGV: raw holder id, observed token.
-- Returns {'released'} | {'gone'} | {'changed', current token or ''}
local limit = stored_limit()
ensure(3, 4, 5)
local gone = purge_expired()
local result
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    result = {'gone'}
else
    local token = record_token(redis.call('HGET', KEYS[3], ARGV[1]))
    if token ~= ARGV[2] then
        result = {'changed', token or ''}
    else
        remove_holder(limit, ARGV[1])
        return {'released'}
    end
end
if gone > 0 then
    hand_off(limit)
end
return result
