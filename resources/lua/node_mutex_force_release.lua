-- node redis-semaphore Mutex: force-release compare-and-DEL (KEYS: mutex:<key>; ARGV: observed
-- identifier), the library's own delIfEqual. Reply: {1} released; {2} gone; {3} changed; {-2, message}.
local ty = redis.call('TYPE', KEYS[1]).ok
if ty == 'none' then return {2} end
if ty ~= 'string' then return {-2, KEYS[1] .. ' is a ' .. ty .. ', expected a string'} end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {3} end
redis.call('DEL', KEYS[1])
return {1}
