-- Puts a FIFO message at the end of its group (RedisFifoGroups).
-- KEYS: the group's list of ids, the queue's hash of each id's group, the queue's set of groups
-- ARGV: id, group
-- Returns 1 if it is the group's head (the group had no message), else 0.
local length = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[2])
if length == 1 then
  return 1
end
return 0
