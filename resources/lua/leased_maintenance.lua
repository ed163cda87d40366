-- Helpers of the leased scripts that rewrite the queue (purge, repair); loaded after
-- leased_common.lua, only into the scripts that use them, to keep the hot scripts' setup small.

-- HMGET of any number of fields, in chunks; missing fields come back as false.
local function hmget_all(key, fields)
    local out = {}
    local i = 1
    while i <= #fields do
        local last = math.min(i + 499, #fields)
        local part = redis.call('HMGET', key, unpack(fields, i, last))
        for j = 1, #part do
            out[#out + 1] = part[j]
        end
        i = last + 1
    end
    return out
end

-- Rewrites the queue without entries that have no record, that hold a slot, or that repeat, and
-- with `drop_dead` without waiters whose lease ran out (their records go too). O(n), never on the
-- hot path. Returns the dead waiters dropped, the stray entries dropped, and the set of ids still
-- queued.
local function rebuild_queue(drop_dead)
    local ids = redis.call('LRANGE', KEYS[4], '0', '-1')
    local queued = {}
    if #ids == 0 then
        return 0, 0, queued
    end
    local recs = hmget_all(KEYS[5], ids)
    local keep, dead = {}, {}
    local stray = 0
    for i, w in ipairs(ids) do
        local ticket, _, lease = parse_waiting(recs[i])
        if not ticket or queued[w] or redis.call('ZSCORE', KEYS[1], w) then
            stray = stray + 1
        elseif drop_dead and lease <= now then
            dead[#dead + 1] = w
        else
            keep[#keep + 1] = w
            queued[w] = true
        end
    end
    if #keep < #ids then
        redis.call('DEL', KEYS[4])
        chunked('RPUSH', KEYS[4], keep)
        chunked('HDEL', KEYS[5], dead)
    end
    return #dead, stray, queued
end
