-- Takes a message that left a FIFO queue out of its group (RedisFifoGroups) and, given the
-- core's delayed set, releases the group's new head there in the same step: re-scores its entry
-- (where it is held) to now, if it is due later, and announces it on the push channel as
-- push.lua does, for long polls to wake. A new head no longer held (gone meanwhile) is taken
-- out of the group too, and the one after it released instead.
-- KEYS: the queue's hash of each id's group, the queue's set of groups[, the queue's delayed
--   set (the core's, on the same slot)]
-- ARGV: id, the prefix of the groups' list keys (on the queue's slot)[, now, the queue's name,
--   the push channel]
-- Returns the group's new head if the message was the head and another follows (released, if
-- it was to be), 0 if none is to be released, -1 if the message was in no group.
local group = redis.call('HGET', KEYS[1], ARGV[1])
if not group then
  return -1
end
redis.call('HDEL', KEYS[1], ARGV[1])
local list = ARGV[2] .. group
local head = redis.call('LINDEX', list, 0)
redis.call('LREM', list, 1, ARGV[1])
local next = redis.call('LINDEX', list, 0)
while next and KEYS[3] and head == ARGV[1] do
  local at = redis.call('ZSCORE', KEYS[3], next)
  if at then
    local now = tonumber(ARGV[3])
    if tonumber(at) > now then
      redis.call('ZADD', KEYS[3], 'XX', now, next)
    end
    redis.call('PUBLISH', ARGV[5], '0 ' .. ARGV[4])
    return tonumber(next)
  end
  -- gone meanwhile: the one after it
  redis.call('HDEL', KEYS[1], next)
  redis.call('LPOP', list)
  next = redis.call('LINDEX', list, 0)
end
if not next then
  redis.call('SREM', KEYS[2], group)
  return 0
end
if head == ARGV[1] then
  return tonumber(next)
end
return 0
