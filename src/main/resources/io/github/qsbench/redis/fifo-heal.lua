-- Takes out of their groups the heads that left the queue's core without leaving their group
-- (RedisFifoGroups): an instance killed between a message's completion (or discard) in the core
-- and its removal from the group leaves the group's list headed by a message the core no longer
-- holds, and the group blocked. Each such head is taken out, as fifo-remove.lua would have, and the
-- group's new head, held in the core's delayed set, is released there: re-scored to now and
-- announced on the push channel.
-- One pass looks at one slice of the queue's groups, an SSCAN from the cursor the previous pass
-- returned, so that no pass's work grows with the queue's groups (thousands of groups would block
-- Redis for their whole loop; a set small enough to be kept compact, at most 128 groups by default,
-- or 512 whose names are all integers, comes whole in one pass); the passes from cursor 0 back to 0 are a cycle, which looks at every
-- group in the set throughout it (SSCAN's guarantee; one added or removed meanwhile may be missed,
-- one may be looked at twice: taking a head out is idempotent).
-- KEYS: the queue's hash of each id's group, the queue's set of groups, the core's bodies hash,
--   the core's delayed set (all on the queue's slot)
-- ARGV: the prefix of the groups' list keys, now, the queue's name, the push channel, the cursor
--   (0 to start a cycle), how many groups to ask SSCAN for (its COUNT, a hint)
-- Returns the cursor of the next pass: 0 once this pass ended a cycle.
local scan = redis.call('SSCAN', KEYS[2], ARGV[5], 'COUNT', ARGV[6])
for _, group in ipairs(scan[2]) do
  local list = ARGV[1] .. group
  local head = redis.call('LINDEX', list, 0)
  local moved = false
  while head and redis.call('HEXISTS', KEYS[3], head) == 0 do
    redis.call('LPOP', list)
    redis.call('HDEL', KEYS[1], head)
    moved = true
    head = redis.call('LINDEX', list, 0)
  end
  if moved then
    if not head then
      redis.call('SREM', KEYS[2], group)
    else
      local at = redis.call('ZSCORE', KEYS[4], head)
      if at and tonumber(at) > tonumber(ARGV[2]) then
        redis.call('ZADD', KEYS[4], 'XX', ARGV[2], head)
        redis.call('PUBLISH', ARGV[4], '0 ' .. ARGV[3])
      end
    end
  end
end
return scan[1]
