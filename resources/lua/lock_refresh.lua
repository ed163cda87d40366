-- lock: compare-and-PEXPIRE. ARGV: token, ttl ms. Returns {1, expiresAt} | {0}.
if redis.call('GET', KEYS[1]) == ARGV[1] then
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {1, string.format('%.0f', now + tonumber(ARGV[2]))}
end
return {0}
