#!lua flags=no-writes
-- Redisson RLock / RFencedLock: read the lock hash and the fencing token (KEYS: N,
-- redisson_lock_token:{N}; ARGV: cap). Reply: {now_ms, type, pttl, {field, count (cut), ...},
-- token type, token (cut)}
local cap = tonumber(ARGV[1]) or 10000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ty = redis.call('TYPE', KEYS[1]).ok
local pttl, fields = -2, {}
if ty ~= 'none' then pttl = redis.call('PTTL', KEYS[1]) end
if ty == 'hash' then
    local cursor, n = '0', 0
    repeat
        local page = redis.call('HSCAN', KEYS[1], cursor, 'COUNT', 1000)
        cursor = page[1]
        for i = 1, #page[2], 2 do
            if n < cap then
                fields[#fields + 1] = page[2][i]
                fields[#fields + 1] = string.sub(page[2][i + 1], 1, 64)
                n = n + 1
            end
        end
    until cursor == '0' or n >= cap
end
local tty = redis.call('TYPE', KEYS[2]).ok
local token = ''
if tty == 'string' then token = redis.call('GETRANGE', KEYS[2], 0, 63) end
return {now, ty, pttl, fields, tty, token}
