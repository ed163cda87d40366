-- lock: operator force-release of the value the operator saw. ARGV: observed value.
-- Returns 1 released | 0 changed (another value now) | -1 gone.
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'none' then
    return -1
end
if kind ~= 'string' then
    return redis.error_reply('WRONGTYPE ' .. KEYS[1] .. ' is a ' .. kind .. ', expected a string')
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
