-- Commits a FIFO send's messages, all or none (RedisFifoSends): each claimed deduplication key
-- answered with its message, as fifo-settle.lua does, each message appended to its group, as
-- fifo-append.lua does, and released there if it is the group's head, and its record
-- forgotten. Refused if a record is gone (taken by a settlement) or as old as the bound, after
-- which a settlement may take it and the send's pending claims have lapsed.
-- A new head is released in this step, not by a call after it that an instance's death could
-- cut: its entry in the core's delayed set (where the push held it) is re-scored to when it is
-- due (now, or after the queue's delay), if it is still held there and due later, and the
-- release is announced on the push channel as push.lua announces a delayed push, for long polls
-- to wake.
-- KEYS: the queue's sends in progress (sorted set), its window (hash), its expiry (sorted set),
--   its hash of each id's group, its set of groups, its delayed set (the core's)
-- ARGV: now (service clock), the bound, how long the window's keys stay in Redis at least, the
--   prefix of the groups' list keys (on the queue's slot), the delay after which a new head is
--   due, the queue's name, the push channel, then per message: its id, its key's field
--   ('d:<key>'), the answer ('id:sequence'), when the answer leaves the window, its group
-- Returns {0} if refused (nothing done), else 1 then per message 1 if it is its group's head
-- (released).
local now = tonumber(ARGV[1])
local stale = now - tonumber(ARGV[2])
for i = 8, #ARGV, 5 do
  local at = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if not at or tonumber(at) <= stale then
    return {0}
  end
end
local due = now + tonumber(ARGV[5])
local heads = {1}
local released = false
for i = 8, #ARGV, 5 do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('HSET', KEYS[2], ARGV[i + 1], ARGV[i + 2])
  redis.call('ZADD', KEYS[3], ARGV[i + 3], ARGV[i + 1])
  local length = redis.call('RPUSH', ARGV[4] .. ARGV[i + 4], ARGV[i])
  redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 4])
  redis.call('SADD', KEYS[5], ARGV[i + 4])
  local head = 0
  if length == 1 then
    local at = redis.call('ZSCORE', KEYS[6], ARGV[i])
    if at then
      if tonumber(at) > due then
        redis.call('ZADD', KEYS[6], 'XX', due, ARGV[i])
      end
      head = 1
      released = true
    end
  end
  heads[#heads + 1] = head
end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
if released then
  redis.call('PUBLISH', ARGV[7], ARGV[5] .. ' ' .. ARGV[6])
end
return heads
