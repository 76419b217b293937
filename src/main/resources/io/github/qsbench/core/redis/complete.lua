-- Completes (ARGV[3] = 'complete'), changes the lease of (ARGV[3] = 'change') or discards
-- (ARGV[3] = 'discard') one message, deciding as Completion.decide does on one read of its
-- delivery count: absent (never pushed, or gone) NOT_FOUND, 0 (never delivered)
-- NOT_DELIVERED, another delivery than the one named STALE_LEASE. A discard removes it
-- whatever its state.
-- KEYS: ready, leased, delayed, bodies, deliveries[, queues] (standalone only)
-- ARGV: id, delivery (0: any), operation, now, leaseMillis, queue
-- Returns 0 done, 1 not found, 2 not delivered, 3 stale lease; then 1 if the queue is now
-- empty and KEYS[6] was not given (the caller tidies the registry), else 0.
local id = ARGV[1]
local deliveries = redis.call('HGET', KEYS[5], id)
if not deliveries then
  return {1, 0}
end
deliveries = tonumber(deliveries)
local operation = ARGV[3]
if operation ~= 'discard' then
  if deliveries == 0 then
    return {2, 0}
  end
  local delivery = tonumber(ARGV[2])
  if delivery ~= 0 and delivery ~= deliveries then
    return {3, 0}
  end
  if operation == 'change' then
    redis.call('ZADD', KEYS[2], tonumber(ARGV[4]) + tonumber(ARGV[5]), id)
    return {0, 0}
  end
end
redis.call('HDEL', KEYS[4], id)
redis.call('HDEL', KEYS[5], id)
if redis.call('ZREM', KEYS[2], id) == 0 and redis.call('ZREM', KEYS[3], id) == 0 then
  redis.call('LREM', KEYS[1], 1, id)
end
local emptied = 0
if redis.call('HLEN', KEYS[4]) == 0 then
  if KEYS[6] then
    redis.call('SREM', KEYS[6], ARGV[6])
  else
    emptied = 1
  end
end
return {0, emptied}
