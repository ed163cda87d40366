-- leased: make the keys consistent again (after leased_common.lua and leased_maintenance.lua): raise
-- the fencing and ticket counters above every number on record (rebuilding them when the meta was
-- lost) so tokens keep rising; then drop owner records without a holder; queue entries without a
-- record, of holders, or repeated; records of ids neither queued nor holding (a holder's record is a
-- hand-off not picked up yet), and records nobody can read; and hand free room to the queue.
-- Returns {owner records dropped, queue entries dropped, fence raised 0/1, limit missing 0/1}.
read_meta() -- a meta of the wrong type fails here, before anything is written
ensure(1, 3, 4, 5)
local raised = raise_counters()
purge_expired()
local orphans = {}
for _, h in ipairs(redis.call('HKEYS', KEYS[3])) do
    if not redis.call('ZSCORE', KEYS[1], h) then
        orphans[#orphans + 1] = h
    end
end
chunked('HDEL', KEYS[3], orphans)
local _, stray, queued = rebuild_queue(false)
local records = redis.call('HGETALL', KEYS[5])
local void = {}
for i = 1, #records, 2 do
    local w = records[i]
    if not (parse_waiting(records[i + 1]) and (queued[w] or redis.call('ZSCORE', KEYS[1], w))) then
        void[#void + 1] = w
    end
end
chunked('HDEL', KEYS[5], void)
stray = stray + #void
local limit = stored_limit()
hand_off(limit)
-- A limit lost with the meta stays lost: only the operator knows it (set-limit).
local no_limit = 0
if not limit and redis.call('EXISTS', unpack(KEYS)) > 0 then
    no_limit = 1
end
return {#orphans, stray, raised, no_limit}
