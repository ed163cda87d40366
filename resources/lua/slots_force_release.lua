-- slots: force-release compare-and-act (KEYS: R|list, R|map, R|lease; ARGV: holder, observed slot,
-- observed token or '' if the observed acquisition had none).
-- Only removes the holder if it still has the acquisition the operator saw: the same slot and, where
-- semscope records one (R|lease), the same acquisition token, so a holder that released and took the
-- same slot again is not removed. The slot goes back to the free list unless it is already there.
-- Reply: {1} released; {2} gone; {3, what it has now} changed; {-2, message} unusable data.
local holder, slot, token = ARGV[1], ARGV[2], ARGV[3] or ''
local mapType = redis.call('TYPE', KEYS[2]).ok
if mapType == 'none' then return {2} end
if mapType ~= 'hash' then return {-2, KEYS[2] .. ' is a ' .. mapType .. ', expected a hash'} end
local current = redis.call('HGET', KEYS[2], holder)
if not current then return {2} end
if current ~= slot or tokenOf(holder) ~= token then
    local now = 'slot ' .. current
    if tokenOf(holder) ~= '' then now = now .. ', token ' .. tokenOf(holder) end
    return {3, now}
end
giveBack(holder, current)
return {1}
