local resourceName = KEYS[1]
local listKey = resourceName .. "|list"
local mapKey = resourceName .. "|map"
local ip= ARGV[1]
local resourceCount = tonumber(ARGV[2])

local mapIndex = redis.call('hget', mapKey, ip)
if mapIndex ~= false then
    return 0
end
local mapLen = redis.call('hlen', mapKey)
if mapLen >= resourceCount then
    return -1
end
local listLen = redis.call('llen', listKey)
local currentTotalCount = mapLen + listLen
if currentTotalCount < resourceCount then
    local valueList = {}
    for i = currentTotalCount + 1, resourceCount do
        valueList[i - currentTotalCount] = i
    end
    redis.call('rpush', listKey, unpack(valueList))
end
local curIndex = redis.call('lpop', listKey)
redis.call('hset', mapKey, ip, tonumber(curIndex))
return tonumber(curIndex)
