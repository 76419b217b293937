-- Takes a message that left a FIFO queue out of its group (RedisFifoGroups).
-- KEYS: the queue's hash of each id's group, the queue's set of groups
-- ARGV: id, the prefix of the groups' list keys (on the queue's slot)
-- Returns the group's new head if the message was the head and another follows, 0 if none is
-- to be released, -1 if the message was in no group.
local group = redis.call('HGET', KEYS[1], ARGV[1])
if not group then
  return -1
end
redis.call('HDEL', KEYS[1], ARGV[1])
local list = ARGV[2] .. group
local head = redis.call('LINDEX', list, 0)
redis.call('LREM', list, 1, ARGV[1])
local next = redis.call('LINDEX', list, 0)
if not next then
  redis.call('SREM', KEYS[2], group)
  return 0
end
if head == ARGV[1] then
  return tonumber(next)
end
return 0
