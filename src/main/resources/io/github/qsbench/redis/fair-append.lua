-- Puts a message of a standard queue, pushed held for a moment (FairGroups.PUSH_HOLD_MILLIS), in its
-- fair-queue group (RedisFairGroups): released if the group is quiet, held at the end of its group's
-- list if it is noisy (at least ARGV[4] released and more than ARGV[5] percent of the queue's
-- released grouped messages), its hold then made ARGV[8] ms longer (a year: until a receive releases
-- it). A release ends the message's hold here, as end-delay.lua does, in the same step: an instance
-- killed between the two would leave it counted released and held. An instance killed between the
-- push and this script leaves the message in no group, its hold ending after that moment: delivered
-- as an ungrouped one would be; if the moment passed before this script ran (the message no longer
-- held), the message is left so, in no group.
-- KEYS: released id -> group, held id -> group, group -> released count, released total,
--   groups holding messages (round-robin list), group -> held count, then the core's ready list
--   and delayed set
-- ARGV: id, group, the prefix of the groups' held lists (on the queue's slot), min, percent,
--   queue, channel, how much longer a noisy group's message is held (ms)
-- Returns 1 if released, 0 if held, -1 if the message is no longer held (purged, or its push's
-- hold ended): nothing kept.
local count = tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0')
local total = tonumber(redis.call('GET', KEYS[4]) or '0')
if count >= tonumber(ARGV[4]) and count * 100 > tonumber(ARGV[5]) * total then
  local due = redis.call('ZSCORE', KEYS[8], ARGV[1])
  if not due then
    return -1
  end
  redis.call('ZADD', KEYS[8], 'XX', tonumber(due) + tonumber(ARGV[8]), ARGV[1])
  redis.call('RPUSH', ARGV[3] .. ARGV[2], ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
  if redis.call('HINCRBY', KEYS[6], ARGV[2], 1) == 1 then
    redis.call('RPUSH', KEYS[5], ARGV[2])
  end
  return 0
end
if redis.call('ZREM', KEYS[8], ARGV[1]) == 0 then
  return -1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
redis.call('INCR', KEYS[4])
if redis.call('RPUSH', KEYS[7], ARGV[1]) == 1 then
  redis.call('PUBLISH', ARGV[7], '0 ' .. ARGV[6])
end
return 1
