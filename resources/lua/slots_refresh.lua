-- slots: extend a holder's lease (KEYS: R|list, R|map, R|lease; ARGV: holder, slot, lease ms, token
-- of the acquisition or '' if it had none).
-- Lost when the holder no longer has exactly this acquisition (slot and token); never re-acquires.
-- Reply: {1, expiry_ms} extended; {1, -1} still held but it has no lease, so nothing was extended;
--        {0} lost.
local holder, slot, leaseMs, token = ARGV[1], ARGV[2], tonumber(ARGV[3]) or 0, ARGV[4] or ''
if redis.call('TYPE', KEYS[2]).ok ~= 'hash' then return {0} end
local current = redis.call('HGET', KEYS[2], holder)
if not current or not isSameAcquisition(holder, current, slot, token) then return {0} end
if not hasLeaseRecord() or redis.call('ZSCORE', KEYS[3], holder) == false or leaseMs <= 0 then
    return {1, -1}
end
local now = nowMs()
if tonumber(redis.call('ZSCORE', KEYS[3], holder)) <= now then
    -- The lease ran out; the next acquire would reclaim it. Give it back instead of reviving it.
    giveBack(holder, current)
    return {0}
end
redis.call('ZADD', KEYS[3], now + leaseMs, holder)
return {1, now + leaseMs}
