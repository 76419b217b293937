-- Takes out of their groups the heads that left the queue's core without leaving their group
-- (RedisFifoGroups): an instance killed between a message's completion (or discard) in the core
-- and its removal from the group leaves the group's list headed by a message the core no longer
-- holds, and the group blocked. Each such head is taken out, as fifo-remove.lua would have, and the
-- group's new head, held in the core's delayed set, is released there: re-scored to now and
-- announced on the push channel.
-- KEYS: the queue's hash of each id's group, the queue's set of groups, the core's bodies hash,
--   the core's delayed set (all on the queue's slot)
-- ARGV: the prefix of the groups' list keys, now, the queue's name, the push channel
-- Returns how many heads it took out.
local taken = 0
for _, group in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local list = ARGV[1] .. group
  local head = redis.call('LINDEX', list, 0)
  local moved = false
  while head and redis.call('HEXISTS', KEYS[3], head) == 0 do
    redis.call('LPOP', list)
    redis.call('HDEL', KEYS[1], head)
    taken = taken + 1
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
return taken
