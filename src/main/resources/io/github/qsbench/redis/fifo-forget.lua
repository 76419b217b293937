-- Forgets a FIFO queue's groups (RedisFifoGroups).
-- KEYS: the queue's hash of each id's group, the queue's set of groups
-- ARGV: the prefix of the groups' list keys (on the queue's slot)
for _, group in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('DEL', ARGV[1] .. group)
end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
