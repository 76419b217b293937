-- Forgets a standard queue's fair-queue groups (RedisFairGroups).
-- KEYS: as fair-append's
-- ARGV: the prefix of the groups' held lists
for _, group in ipairs(redis.call('HKEYS', KEYS[6])) do
  redis.call('DEL', ARGV[1] .. group)
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
return 1
