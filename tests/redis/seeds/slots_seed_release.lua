local resourceName = KEYS[1]
local listKey = resourceName .. "|list"
local mapKey = resourceName .. "|map"
local ip= ARGV[1]

local mapIndex = redis.call('hget', mapKey, ip)
if mapIndex == false then
    return -1
end
redis.call('hdel', mapKey, ip)
redis.call('rpush', listKey, tonumber(mapIndex))
return 1
