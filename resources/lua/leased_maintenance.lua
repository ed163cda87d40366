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

-- The highest number in front of the first '|' of the values of hash `key`: the tokens of owner
-- records, the tickets of waiter records. 0 when there is none.
local function highest_on_record(key)
    local top = 0
    for _, rec in ipairs(redis.call('HVALS', key)) do
        local bar = string.find(rec, '|', 1, true)
        local n = bar and tonumber(string.sub(rec, 1, bar - 1))
        if n and n > top then
            top = n
        end
    end
    return top
end

-- Raises the meta's fencing and ticket counters to at least the highest token and ticket on record,
-- and writes a fencing counter lost with the meta (deleted, evicted) while the semaphore has other
-- keys: neither counter may hand out again a number that a holder or waiter still carries. A lost
-- counter restarts from the clock (fence_start) when that is higher: it may have handed out tokens
-- above every one still on record, to holders that have left or whose records were lost too. Reads
-- every record, orphans and expired holders' included (so callers run it before they purge). The
-- limit is left alone: nothing on record proves one. Returns 1 when the fence was written.
local function raise_counters()
    local fence = tonumber(redis.call('HGET', KEYS[2], 'fence') or '')
    local top = highest_on_record(KEYS[3])
    local raised = 0
    if fence and fence < top then
        redis.call('HSET', KEYS[2], 'fence', num(top))
        raised = 1
    elseif not fence and (top > 0 or redis.call('EXISTS', unpack(KEYS)) > 0) then
        local start = fence_start()
        redis.call('HSET', KEYS[2], 'fence', tonumber(start) > top and start or num(top))
        raised = 1
    end
    local ticket = highest_on_record(KEYS[5])
    if ticket > (tonumber(redis.call('HGET', KEYS[2], 'ticket') or '') or 0) then
        redis.call('HSET', KEYS[2], 'ticket', num(ticket))
    end
    return raised
end
