-- node-semaphore: force-release of a MultiSemaphore holder, compare-and-act on the whole run
-- (KEYS: semaphore:<key>; ARGV: identifier, permits k, observed score).
-- The holder took k permits as the members id_0 .. id_{k-1}, all with one score. They go together,
-- and only while the run is exactly what the operator saw: same k members (no id_k either), each
-- with the observed score. A refresh, a re-acquire or a different permit count is a change.
-- Reply: {1} released; {2} gone; {3, what is there now} changed; {-2, message}.
local ty = redis.call('TYPE', KEYS[1]).ok
if ty == 'none' then return {2} end
if ty ~= 'zset' then return {-2, KEYS[1] .. ' is a ' .. ty .. ', expected a zset'} end
local id, k, observed = ARGV[1], tonumber(ARGV[2]), ARGV[3]
if not k or k < 1 then return {-2, 'bad permit count ' .. tostring(ARGV[2])} end
local members, present = {}, 0
for i = 0, k - 1 do
    local m = id .. '_' .. i
    local score = redis.call('ZSCORE', KEYS[1], m)
    if score then
        present = present + 1
        if observed ~= '' and tonumber(score) ~= tonumber(observed) then return {3, m .. ' score ' .. score} end
    end
    members[#members + 1] = m
end
if present == 0 then return {2} end
if present < k then return {3, present .. ' of ' .. k .. ' permits'} end
if redis.call('ZSCORE', KEYS[1], id .. '_' .. k) then return {3, 'more than ' .. k .. ' permits'} end
redis.call('ZREM', KEYS[1], unpack(members))
return {1}
