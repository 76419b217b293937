-- Completes (ARGV[1] = 'complete'), changes the lease of (ARGV[1] = 'change') or discards
-- (ARGV[1] = 'discard') each message named, in order, deciding for each as
-- Completion.decide does on one read of its delivery count: no body (never pushed, or
-- gone) NOT_FOUND, 0 (never delivered: a body without a count, as push.lua leaves it)
-- NOT_DELIVERED, another delivery than the one named STALE_LEASE. A discard removes it
-- whatever its state.
-- KEYS: ready, leased, delayed, bodies, deliveries (any more are not used)
-- ARGV: operation, now, leaseMillis, then id, delivery (0: any) of each message
-- Returns each message's outcome (a Completion's code, below, pinned by RedisCodesTests). An
-- emptied queue's name leaves the registry at the next listing (RedisQS#queues), not here.
local COMPLETED, NOT_FOUND, NOT_DELIVERED, STALE_LEASE = 0, 1, 2, 3
local operation = ARGV[1]
-- The delivery is read as a number only where it is compared: a tonumber is a strtod (see
-- lease.lua).
local function decide(id, delivery)
  -- Any delivery completed, the common completion, decided without reading the count: a
  -- message in the leased set has been delivered (each script that adds one there counted
  -- its delivery first), and one there without a count is not found, as below.
  if delivery == '0' and operation == 'complete' and redis.call('ZREM', KEYS[2], id) == 1 then
    if redis.call('HDEL', KEYS[5], id) == 0 then
      return NOT_FOUND
    end
    redis.call('HDEL', KEYS[4], id)
    return COMPLETED
  end
  local deliveries = redis.call('HGET', KEYS[5], id)
  if deliveries then
    deliveries = tonumber(deliveries)
  elseif redis.call('HEXISTS', KEYS[4], id) == 1 then
    deliveries = 0
  else
    return NOT_FOUND
  end
  if operation ~= 'discard' then
    if deliveries == 0 then
      return NOT_DELIVERED
    end
    if delivery ~= '0' and tonumber(delivery) ~= deliveries then
      return STALE_LEASE
    end
    if operation == 'change' then
      redis.call('ZADD', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[3]), id)
      return COMPLETED
    end
  end
  redis.call('HDEL', KEYS[4], id)
  redis.call('HDEL', KEYS[5], id)
  if redis.call('ZREM', KEYS[2], id) == 0 and redis.call('ZREM', KEYS[3], id) == 0 then
    redis.call('LREM', KEYS[1], 1, id)
  end
  return COMPLETED
end
local out = {}
for i = 4, #ARGV, 2 do
  out[#out + 1] = decide(ARGV[i], ARGV[i + 1])
end
return out
