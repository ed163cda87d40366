#!lua flags=no-writes,allow-cross-slot-keys
-- Discovery on a Cluster node: one SCAN page and the type of every key on it, in one round trip
-- (no KEYS; ARGV: cursor, MATCH pattern, COUNT). Saves a TYPE command per key: with a million keys
-- that is most of a walk's cost. The keys are this node's own (SCAN returns nothing else), so
-- reading them undeclared is allowed, across its slots (allow-cross-slot-keys) - except during a
-- resharding, when SCAN also returns the keys already moved into a slot this node is still
-- importing, which it refuses to read without ASKING: those get the code 'r' and the caller asks
-- their type through the slot's master (which redirects with ASK).
-- Reply: {next cursor, {keys}, type codes as one string, one letter per key}.
local page = redis.call('SCAN', ARGV[1], 'MATCH', ARGV[2], 'COUNT', ARGV[3])
local codes = {string = 's', hash = 'h', zset = 'z', list = 'l', set = 'e', stream = 'x', none = 'n'}
local types = {}
for i, k in ipairs(page[2]) do
    local t = redis.pcall('TYPE', k)
    if t.ok then
        types[i] = codes[t.ok] or '?'
    else
        types[i] = 'r'
    end
end
return {page[1], page[2], table.concat(types)}
