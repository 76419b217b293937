-- Puts a message of a standard queue, pushed held, in its fair-queue group (RedisFairGroups):
-- released if the group is quiet, held at the end of its group's list if it is noisy (at least
-- ARGV[4] released and more than ARGV[5] percent of the queue's released grouped messages). A
-- release ends the message's hold here, as end-delay.lua does, in the same step: an instance
-- killed between the two would leave it counted released and held for a year.
-- KEYS: released id -> group, held id -> group, group -> released count, released total,
--   groups holding messages (round-robin list), group -> held count, then the core's ready list
--   and delayed set
-- ARGV: id, group, the prefix of the groups' held lists (on the queue's slot), min, percent,
--   queue, channel
-- Returns 1 if released, 0 if held, -1 if the message is gone (purged meanwhile): nothing kept.
local count = tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0')
local total = tonumber(redis.call('GET', KEYS[4]) or '0')
if count >= tonumber(ARGV[4]) and count * 100 > tonumber(ARGV[5]) * total then
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
