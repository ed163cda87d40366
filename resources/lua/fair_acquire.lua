-- fair: one acquire attempt doing, atomically, exactly what the book's (and the seed's) two round
-- trips do (KEYS: S, S:owner, S:counter, then the outer lock keys; ARGV: holder, limit, timeout ms).
-- Scores stay in seconds as the seed writes them, taken from the Redis clock.
-- The book's clients (listing 6.17) and the seed's take an outer lock around their several round
-- trips; one holding it may be between its INCR and its ZADD, and a grant then would let it in
-- too, over the limit. So while any outer lock key exists, nothing is done.
-- Reply: {1, counter, rank, acquired_ms} granted; {0, counter, rank} over the limit (entries
--        removed again, as the book does); {-3, lock key, its value (cut), its pttl} an outer lock is
--        held; {-2, message} unusable data.
local holder, limit, timeoutMs = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 4, #KEYS do
    local ty = redis.call('TYPE', KEYS[i]).ok
    if ty ~= 'none' then
        local value = ''
        if ty == 'string' then value = redis.call('GETRANGE', KEYS[i], 0, 63) end
        return {-3, KEYS[i], value, redis.call('PTTL', KEYS[i])}
    end
end
for i = 1, 3 do
    local ty = redis.call('TYPE', KEYS[i]).ok
    local want = i == 3 and 'string' or 'zset'
    if ty ~= want and ty ~= 'none' then return {-2, KEYS[i] .. ' is a ' .. ty .. ', expected a ' .. want} end
end
if redis.call('TYPE', KEYS[3]).ok == 'string' then
    -- INCR would fail on anything but a 64-bit integer; refuse with a reason instead.
    local len = redis.call('STRLEN', KEYS[3])
    if len > 19 or not string.match(redis.call('GET', KEYS[3]), '^%-?%d+$') then
        return {-2, KEYS[3] .. ' does not hold an integer'}
    end
end
local t = redis.call('TIME')
local nowS = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowS - timeoutMs / 1000)
redis.call('ZINTERSTORE', KEYS[2], 2, KEYS[2], KEYS[1], 'WEIGHTS', 1, 0)
-- A counter that was lost (DEL, eviction) or set back would hand out the tokens of holders still on
-- record and rank the newcomer ahead of them: go on above the highest counter on record.
local top = redis.call('ZREVRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2]
if top and (tonumber(redis.call('GET', KEYS[3])) or 0) < math.floor(tonumber(top)) then
    redis.call('SET', KEYS[3], string.format('%d', math.floor(tonumber(top))))
end
local counter = redis.call('INCR', KEYS[3])
redis.call('ZADD', KEYS[1], string.format('%.6f', nowS), holder)
redis.call('ZADD', KEYS[2], counter, holder)
local rank = redis.call('ZRANK', KEYS[2], holder)
-- Entries in S whose :owner entry is lost have no rank, but their clients may still hold: the
-- ranks decide only while every entry in S counts against the limit.
if rank < limit and redis.call('ZCARD', KEYS[1]) <= limit then
    return {1, counter, rank, math.floor(nowS * 1000)}
end
redis.call('ZREM', KEYS[1], holder)
redis.call('ZREM', KEYS[2], holder)
return {0, counter, rank}
