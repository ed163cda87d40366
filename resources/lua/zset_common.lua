-- zset: helpers prepended to the zset write scripts (acquire, refresh, purge; see ZsetKind.cpp), so
-- each operation stays one EVALSHA and all of them read a set the same way.
--
-- A member's score is its expiry, in seconds or in milliseconds since the epoch. The unit is decided
-- for the whole set, from every member, by counting the scores in two disjoint windows (Redis in
-- Action's and Symfony's sets hold seconds, the seed's and madelson's milliseconds; README, "Semaphore
-- layouts semscope reads and operates"): |score - now_s| < 1e8 reads as seconds, |score - now_ms|
-- < 1e11 as milliseconds. Two ZCOUNTs, whatever the size of the set. A score in neither window (0, a
-- counter, inf) has no certain expiry: it counts as a holder and is never removed.

local function zsetNowMs()
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function zsetNum(x)
    return string.format('%.17g', x)
end

-- The scores that read as times in `unit` lie strictly between lo and hi.
local function zsetWindow(unit, nowMs)
    if unit == 's' then return nowMs / 1000 - 1e8, nowMs / 1000 + 1e8 end
    return nowMs - 1e11, nowMs + 1e11
end

-- Members scored in (lo, hi] (hi exclusive too when `openHi`): how many, and one of them to name.
local function zsetCount(key, lo, hi, openHi)
    local min, max = '(' .. zsetNum(lo), (openHi and '(' or '') .. zsetNum(hi)
    local n = redis.call('ZCOUNT', key, min, max)
    if n == 0 then return 0, '' end
    return n, string.sub(redis.call('ZRANGEBYSCORE', key, min, max, 'LIMIT', 0, 1)[1], 1, 64)
end

local function zsetUnitName(unit)
    return unit == 's' and 'seconds' or 'milliseconds'
end

-- The unit of the set: the one asked for (the operator's profile), else the one its members use,
-- else milliseconds (as the seed writes). nil and the reason when members disagree with each other
-- or with the profile: then no member's expiry is certain and the caller must not write.
local function zsetUnit(key, asked, nowMs)
    local sLo, sHi = zsetWindow('s', nowMs)
    local msLo, msHi = zsetWindow('ms', nowMs)
    local nS, exS = zsetCount(key, sLo, sHi, true)
    local nMs, exMs = zsetCount(key, msLo, msHi, true)
    if nS > 0 and nMs > 0 then
        return nil, string.format('%s mixes second and millisecond scores (%d in seconds, e.g. %s; %d in '
            .. 'milliseconds, e.g. %s): which holders have expired is not certain, so nothing was written',
            key, nS, exS, nMs, exMs)
    end
    local other, nOther, exOther = 'ms', nMs, exMs
    if asked == 'ms' then other, nOther, exOther = 's', nS, exS end
    if (asked == 's' or asked == 'ms') and nOther > 0 then
        return nil, string.format('the profile gives %s scores in %s, but %d members are scored in %s '
            .. '(e.g. %s): which holders have expired is not certain, so nothing was written',
            key, zsetUnitName(asked), nOther, zsetUnitName(other), exOther)
    end
    if asked == 's' or asked == 'ms' then return asked end
    if nS > 0 then return 's' end
    return 'ms'
end

local function zsetNow(unit, nowMs)
    return unit == 's' and nowMs / 1000 or nowMs
end

local function zsetScoreMs(score, unit)
    return math.floor(tonumber(score) * (unit == 's' and 1000 or 1))
end

local function zsetScoreText(expiryMs, unit)
    if unit == 's' then return string.format('%.3f', expiryMs / 1000) end
    return zsetNum(expiryMs)
end

-- Neither the seed nor semscope sets a TTL on this key. A key with a TTL whose scores lie in the
-- past is what node redis-semaphore writes (its scores are acquire/refresh times, live for
-- lockTimeout more, and every acquire resets the key's PEXPIRE): those members are not expired for
-- certain, so nothing that would remove them may run. The reason, or nil.
local function zsetPastUncertain(key, unit, nowMs)
    if redis.call('PTTL', key) < 0 then return nil end
    local lo = zsetWindow(unit, nowMs)
    local n, ex = zsetCount(key, lo, zsetNow(unit, nowMs), false)
    if n == 0 then return nil end
    return string.format('%s has a key TTL and %d scores in the past (e.g. %s): they look like acquire or '
        .. 'refresh times (node redis-semaphore), not expiries, so nothing was removed; read it as '
        .. 'kind node-semaphore', key, n, ex)
end

-- Removes the members whose expiry has certainly passed; scores outside the unit's window stay.
local function zsetPurge(key, unit, nowMs)
    local lo = zsetWindow(unit, nowMs)
    return redis.call('ZREMRANGEBYSCORE', key, '(' .. zsetNum(lo), zsetNum(zsetNow(unit, nowMs)))
end

-- The latest expiry (ms) among live members other than `except`, or nil. The seed's clients rank by
-- expiry: a semscope lease that ends after theirs is overtaken by their next client, which then
-- believes it holds on top of a full set. Leases are capped there (zsetCappedExpiry).
local function zsetLatestLiveMs(key, unit, nowMs, except)
    local _, hi = zsetWindow(unit, nowMs)
    local top = redis.call('ZREVRANGEBYSCORE', key, '(' .. zsetNum(hi), '(' .. zsetNum(zsetNow(unit, nowMs)),
        'WITHSCORES', 'LIMIT', 0, 2)
    for i = 1, #top, 2 do
        if top[i] ~= except then return zsetScoreMs(top[i + 1], unit) end
    end
    return nil
end

-- The lease to write: the one asked for, capped at the clients' lease when the profile gives it,
-- else at the latest expiry of the live holders. Returns expiry ms and how it was capped
-- (0 not, 1 at the live holders' latest expiry, 2 at the profile's client lease).
local function zsetCappedExpiry(key, unit, nowMs, leaseMs, clientLeaseMs, except)
    if clientLeaseMs > 0 then
        if leaseMs > clientLeaseMs then return nowMs + clientLeaseMs, 2 end
        return nowMs + leaseMs, 0
    end
    local latest = zsetLatestLiveMs(key, unit, nowMs, except)
    if latest and latest < nowMs + leaseMs then return latest, 1 end
    return nowMs + leaseMs, 0
end
