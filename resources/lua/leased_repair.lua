-- leased: make the keys consistent again (after leased_common.lua and leased_maintenance.lua): drop
-- owner records without a holder; queue entries without a record, of holders, or repeated; records
-- of ids neither queued nor holding (a holder's record is a hand-off not picked up yet), and
-- records nobody can read; then raise the fence to at least the highest token on record so tokens
-- keep rising, and hand free room to the queue.
-- Returns {owner records dropped, queue entries dropped, fence raised 0/1}.
local limit = stored_limit()
ensure(1, 3, 4, 5)
purge_expired()
local orphans = {}
local max_token = 0
local owners = redis.call('HGETALL', KEYS[3])
for i = 1, #owners, 2 do
    local h = owners[i]
    if not redis.call('ZSCORE', KEYS[1], h) then
        orphans[#orphans + 1] = h
    else
        local t = tonumber(record_token(owners[i + 1]) or '')
        if t and t > max_token then
            max_token = t
        end
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
local raised = 0
local fence = tonumber(redis.call('HGET', KEYS[2], 'fence') or '')
if (not fence or fence < max_token) and (max_token > 0 or redis.call('EXISTS', KEYS[2]) == 1) then
    redis.call('HSET', KEYS[2], 'fence', num(max_token))
    raised = 1
end
hand_off(limit)
return {#orphans, stray, raised}
