-- Puts a FIFO message at the end of its group (RedisFifoGroups) and, given the core's delayed
-- set, releases it there in the same step if it is the group's head: re-scores its entry in
-- the delayed set (where it is held) to when it is due, if it is still held there and due later,
-- and announces it on the push channel as push.lua does, for long polls to wake.
-- KEYS: the group's list of ids, the queue's hash of each id's group, the queue's set of groups
--   [, the queue's delayed set (the core's, on the same slot)]
-- ARGV: id, group[, now (service clock), the delay after which it is due, the queue's name,
--   the push channel]
-- Returns 1 if it is the group's head (the group had no message) and, if it was to be
-- released, was released; else 0.
local length = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[2])
if length ~= 1 then
  return 0
end
if not KEYS[4] then
  return 1
end
local at = redis.call('ZSCORE', KEYS[4], ARGV[1])
if not at then
  return 0
end
local due = tonumber(ARGV[3]) + tonumber(ARGV[4])
if tonumber(at) > due then
  redis.call('ZADD', KEYS[4], 'XX', due, ARGV[1])
end
redis.call('PUBLISH', ARGV[6], ARGV[4] .. ' ' .. ARGV[5])
return 1
