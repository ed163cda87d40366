-- zset: remove the holders that have certainly expired (after zset_common.lua; KEYS: K;
-- ARGV: unit 'ms' | 's' | 'auto'). Nothing is removed when the members' unit is in conflict, when
-- the scores may be acquire times (see zsetPastUncertain), or for a score that is not a time.
-- Reply: {1, number removed} or {-2, message}.
local key = KEYS[1]
if redis.call('TYPE', key).ok ~= 'zset' then return {1, 0} end
local nowMs = zsetNowMs()
local unit, why = zsetUnit(key, ARGV[1], nowMs)
if not unit then return {-2, why} end
why = zsetPastUncertain(key, unit, nowMs)
if why then return {-2, why} end
return {1, zsetPurge(key, unit, nowMs)}
