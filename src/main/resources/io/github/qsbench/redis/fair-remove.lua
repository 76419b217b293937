-- Takes a message that left a standard queue out of its fair-queue group (RedisFairGroups).
-- KEYS: as fair-append's
-- ARGV: id, the prefix of the groups' held lists
-- Returns 1 if it was in a group (released or held), 0 if not.
local group = redis.call('HGET', KEYS[1], ARGV[1])
if group then
  redis.call('HDEL', KEYS[1], ARGV[1])
  if redis.call('HINCRBY', KEYS[3], group, -1) <= 0 then
    redis.call('HDEL', KEYS[3], group)
  end
  redis.call('DECR', KEYS[4])
  return 1
end
group = redis.call('HGET', KEYS[2], ARGV[1])
if not group then
  return 0
end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('LREM', ARGV[2] .. group, 1, ARGV[1])
if redis.call('HINCRBY', KEYS[6], group, -1) <= 0 then
  redis.call('HDEL', KEYS[6], group)
  redis.call('LREM', KEYS[5], 0, group)
end
return 1
