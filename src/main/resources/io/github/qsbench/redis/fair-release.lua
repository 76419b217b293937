-- Releases up to ARGV[1] held messages of a standard queue's fair-queue groups, one group after
-- another (RedisFairGroups): each counted released and its hold ended (made ready at the tail of
-- the core's ready list, as end-delay.lua does) in this one step, so that no instance killed
-- midway leaves one counted released and held for a year. One gone meanwhile (purged) leaves
-- its group and is not counted.
-- First it looks at ARGV[5] released ids drawn at random (HRANDFIELD: the cost is bounded however
-- many the queue has) and takes out of its group, as fair-remove.lua would have, each whose
-- message the core no longer holds: an instance killed between a message's completion and its
-- removal from its group leaves the group counting it for good, judged noisy sooner. Taken out
-- twice is taken out once (fair-remove.lua finds it gone).
-- KEYS: as fair-append's, then the core's bodies hash
-- ARGV: max, the prefix of the groups' held lists, queue, channel, how many released ids to look at
-- Returns the released ids.
local sample = redis.call('HRANDFIELD', KEYS[1], ARGV[5], 'WITHVALUES')
for i = 1, #sample, 2 do
  if redis.call('HEXISTS', KEYS[9], sample[i]) == 0 then
    redis.call('HDEL', KEYS[1], sample[i])
    if redis.call('HINCRBY', KEYS[3], sample[i + 1], -1) <= 0 then
      redis.call('HDEL', KEYS[3], sample[i + 1])
    end
    redis.call('DECR', KEYS[4])
  end
end
local out = {}
local max = tonumber(ARGV[1])
local announce = false
while #out < max do
  local group = redis.call('LPOP', KEYS[5])
  if not group then
    break
  end
  local id = redis.call('LPOP', ARGV[2] .. group)
  if id then
    redis.call('HDEL', KEYS[2], id)
    if redis.call('ZREM', KEYS[8], id) == 1 then
      redis.call('HSET', KEYS[1], id, group)
      redis.call('HINCRBY', KEYS[3], group, 1)
      redis.call('INCR', KEYS[4])
      if redis.call('RPUSH', KEYS[7], id) == 1 then
        announce = true
      end
      out[#out + 1] = id
    end
  end
  if id and redis.call('HINCRBY', KEYS[6], group, -1) > 0 then
    redis.call('RPUSH', KEYS[5], group)
  else
    redis.call('HDEL', KEYS[6], group)
  end
end
if announce then
  redis.call('PUBLISH', ARGV[4], '0 ' .. ARGV[3])
end
return out
