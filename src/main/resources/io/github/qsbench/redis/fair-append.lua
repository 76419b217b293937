-- Puts a message of a standard queue, pushed held, in its fair-queue group (RedisFairGroups):
-- released if the group is quiet, held at the end of its group's list if it is noisy (at least
-- ARGV[4] released and more than ARGV[5] percent of the queue's released grouped messages).
-- KEYS: released id -> group, held id -> group, group -> released count, released total,
--   groups holding messages (round-robin list), group -> held count
-- ARGV: id, group, the prefix of the groups' held lists (on the queue's slot), min, percent
-- Returns 1 if released (the caller ends its hold), 0 if held.
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
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
redis.call('INCR', KEYS[4])
return 1
