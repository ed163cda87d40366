#!lua flags=no-writes
-- node redis-semaphore Mutex: read mutex:<key> (KEYS: mutex:<key>). The identifier is cut to 4096
-- bytes. Reply: {now_ms, type, value, length, pttl}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ty = redis.call('TYPE', KEYS[1]).ok
local value, len, pttl = '', -1, -2
if ty == 'string' then
    len = redis.call('STRLEN', KEYS[1])
    value = redis.call('GETRANGE', KEYS[1], 0, 4095)
end
if ty ~= 'none' then pttl = redis.call('PTTL', KEYS[1]) end
return {now, ty, value, len, pttl}
