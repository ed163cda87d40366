#!lua flags=no-writes
-- lock: consistent read of the value and its PTTL with "now" from TIME.
-- ARGV: how many bytes of the value to return.
-- Returns {now, type, value (first bytes) or false, pttl, full length}
local t = redis.call('TIME')
local now = string.format('%.0f', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
local kind = redis.call('TYPE', KEYS[1]).ok
if kind ~= 'string' then
    return {now, kind, false, redis.call('PTTL', KEYS[1]), 0}
end
return {now, kind, redis.call('GETRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1), redis.call('PTTL', KEYS[1]),
        redis.call('STRLEN', KEYS[1])}
