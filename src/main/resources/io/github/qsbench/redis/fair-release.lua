-- Releases up to ARGV[1] held messages of a standard queue's fair-queue groups, one group after
-- another (RedisFairGroups): each counted released and its hold ended (made ready at the tail of
-- the core's ready list, as end-delay.lua does) in this one step, so that no instance killed
-- midway leaves one counted released and held for a year. One gone meanwhile (purged) leaves
-- its group and is not counted.
-- KEYS: as fair-append's
-- ARGV: max, the prefix of the groups' held lists, queue, channel
-- Returns the released ids.
local out = {}
local max = tonumber(ARGV[1])
local announce = false
while #out < max do
  local group = redis.call('LPOP', KEYS[5])
  if not group then
    break
  end
  local id = redis.call('LPOP', ARGV[2] .. group)
  if id then
    redis.call('HDEL', KEYS[2], id)
    if redis.call('ZREM', KEYS[8], id) == 1 then
      redis.call('HSET', KEYS[1], id, group)
      redis.call('HINCRBY', KEYS[3], group, 1)
      redis.call('INCR', KEYS[4])
      if redis.call('RPUSH', KEYS[7], id) == 1 then
        announce = true
      end
      out[#out + 1] = id
    end
  end
  if id and redis.call('HINCRBY', KEYS[6], group, -1) > 0 then
    redis.call('RPUSH', KEYS[5], group)
  else
    redis.call('HDEL', KEYS[6], group)
  end
end
if announce then
  redis.call('PUBLISH', ARGV[4], '0 ' .. ARGV[3])
end
return out
