-- Makes a delayed message ready now, at the tail of the ready list.
-- KEYS: ready, leased, delayed, bodies, deliveries
-- ARGV: id, queue, channel
-- Returns 1 if it was delayed (not delivered, not gone), else 0.
if redis.call('ZREM', KEYS[3], ARGV[1]) == 0 then
  return 0
end
if redis.call('RPUSH', KEYS[1], ARGV[1]) == 1 then
  redis.call('PUBLISH', ARGV[3], '0 ' .. ARGV[2])
end
return 1
