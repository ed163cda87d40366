-- lock: compare-and-delete, the release every SET-NX-PX client uses. ARGV: token. Returns 1 | 0.
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
