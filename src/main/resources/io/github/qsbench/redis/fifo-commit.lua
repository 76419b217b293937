-- Commits a FIFO send's messages, all or none (RedisFifoSends): each claimed deduplication key
-- answered with its message, as fifo-settle.lua does, each message appended to its group, as
-- fifo-append.lua does, and its record forgotten. Refused if a record is gone (taken by a
-- settlement) or as old as the bound, after which a settlement may take it and the send's
-- pending claims have lapsed.
-- KEYS: the queue's sends in progress (sorted set), its window (hash), its expiry (sorted set),
--   its hash of each id's group, its set of groups
-- ARGV: now (service clock), the bound, how long the window's keys stay in Redis at least, the
--   prefix of the groups' list keys (on the queue's slot), then per message: its id, its key's
--   field ('d:<key>'), the answer ('id:sequence'), when the answer leaves the window, its group
-- Returns {0} if refused (nothing done), else 1 then per message 1 if it is its group's head.
local stale = tonumber(ARGV[1]) - tonumber(ARGV[2])
for i = 5, #ARGV, 5 do
  local at = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if not at or tonumber(at) <= stale then
    return {0}
  end
end
local heads = {1}
for i = 5, #ARGV, 5 do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('HSET', KEYS[2], ARGV[i + 1], ARGV[i + 2])
  redis.call('ZADD', KEYS[3], ARGV[i + 3], ARGV[i + 1])
  local length = redis.call('RPUSH', ARGV[4] .. ARGV[i + 4], ARGV[i])
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 4])
  redis.call('SADD', KEYS[5], ARGV[i + 4])
  heads[#heads + 1] = (length == 1) and 1 or 0
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return heads
