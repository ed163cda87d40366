-- leased: make the keys consistent again (after leased_common.lua): drop owner records without a
-- holder, queue entries without a waiter lease (and the reverse), waiter records of nobody queued
-- (except a hand-off still to be picked up), and raise the fence to at least the highest token on
-- record so tokens keep rising. Then hand free room to the queue.
-- ARGV: release channel. Returns {owner records dropped, queue entries dropped, fence raised 0/1}.
local now = now_ms()
local limit = stored_limit()
purge_expired(now)
ensure(3)
ensure(4)
ensure(5)
ensure(6)
local owners = redis.call('HKEYS', KEYS[3])
local orphans = {}
local max_token = 0
for _, h in ipairs(owners) do
    if not redis.call('ZSCORE', KEYS[1], h) then
        orphans[#orphans + 1] = h
    else
        local t = tonumber(owner_token(h) or '')
        if t and t > max_token then
            max_token = t
        end
    end
end
chunked('HDEL', KEYS[3], orphans)
local stray = 0
for _, w in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
    if not redis.call('ZSCORE', KEYS[5], w) then
        redis.call('ZREM', KEYS[4], w)
        redis.call('HDEL', KEYS[6], w)
        stray = stray + 1
    end
end
for _, w in ipairs(redis.call('ZRANGE', KEYS[5], 0, -1)) do
    if not redis.call('ZSCORE', KEYS[4], w) then
        redis.call('ZREM', KEYS[5], w)
        stray = stray + 1
    end
end
for _, w in ipairs(redis.call('HKEYS', KEYS[6])) do
    if not redis.call('ZSCORE', KEYS[4], w) then
        if not redis.call('ZSCORE', KEYS[1], w) then
            redis.call('HDEL', KEYS[6], w)
            stray = stray + 1
        end
    end
end
local raised = 0
local fence = tonumber(redis.call('HGET', KEYS[2], 'fence') or '')
if (not fence or fence < max_token) and (max_token > 0 or redis.call('EXISTS', KEYS[2]) == 1) then
    redis.call('HSET', KEYS[2], 'fence', max_token)
    raised = 1
end
hand_off(now, limit, ARGV[1])
return {#orphans, stray, raised}
