-- leased: operator force-release, compare-and-act (after leased_common.lua); the freed slot goes to
-- the head of the queue.
-- ARGV: raw holder id, observed token, release channel.
-- Returns {'released'} | {'gone'} | {'changed', current token or ''}
local now = now_ms()
local limit = stored_limit()
local gone = purge_expired(now)
local result
if not read(1, 'ZSCORE', ARGV[1]) then
    result = {'gone'}
else
    local token = owner_token(ARGV[1])
    if token ~= ARGV[2] then
        result = {'changed', token or ''}
    else
        remove_holder(now, limit, ARGV[3], ARGV[1])
        return {'released'}
    end
end
if gone > 0 then
    hand_off(now, limit, ARGV[3])
end
return result
