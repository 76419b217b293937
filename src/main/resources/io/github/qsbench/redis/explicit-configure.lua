-- Creates a queue explicitly if it was not (its settings hash, which holds the field
-- 'explicit' as long as the queue exists), then sets or removes settings of its own, and
-- announces the change.
-- KEYS: settings[, explicit] (the registry of names: standalone Redis only; a cluster
--   cannot reach it from the queue's slot)
-- ARGV: queue, channel, then pairs of a field and its value ('' removes the field)
-- Publishes the queue's name on the channel, so that every instance drops what it cached.
-- Returns 1 if it created the queue, else 0.
local created = redis.call('HSETNX', KEYS[1], 'explicit', '1')
for i = 3, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', KEYS[1], ARGV[i])
  else
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
if KEYS[2] then
  redis.call('SADD', KEYS[2], ARGV[1])
end
redis.call('PUBLISH', ARGV[2], ARGV[1])
return created
