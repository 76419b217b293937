-- Forgets a queue created explicitly, with its settings, and announces it.
-- KEYS: settings[, explicit] (the registry of names: standalone Redis only)
-- ARGV: queue, channel
-- Publishes the queue's name on the channel if it was explicit, so that every instance
-- drops what it cached.
-- Returns 1 if it was created explicitly, else 0.
local existed = redis.call('DEL', KEYS[1])
if KEYS[2] then
  redis.call('SREM', KEYS[2], ARGV[1])
end
if existed == 1 then
  redis.call('PUBLISH', ARGV[2], ARGV[1])
end
return existed
