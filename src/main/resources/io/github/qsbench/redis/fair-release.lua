-- Releases up to ARGV[1] held messages of a standard queue's fair-queue groups, one group after
-- another (RedisFairGroups): each counted released; the caller ends their hold.
-- KEYS: as fair-append's
-- ARGV: max, the prefix of the groups' held lists
-- Returns the released ids.
local out = {}
local max = tonumber(ARGV[1])
while #out < max do
  local group = redis.call('LPOP', KEYS[5])
  if not group then
    break
  end
  local id = redis.call('LPOP', ARGV[2] .. group)
  if id then
    redis.call('HDEL', KEYS[2], id)
    redis.call('HSET', KEYS[1], id, group)
    redis.call('HINCRBY', KEYS[3], group, 1)
    redis.call('INCR', KEYS[4])
    out[#out + 1] = id
  end
  if id and redis.call('HINCRBY', KEYS[6], group, -1) > 0 then
    redis.call('RPUSH', KEYS[5], group)
  else
    redis.call('HDEL', KEYS[6], group)
  end
end
return out
