-- Puts the messages of one push to a standard queue, pushed held for a moment
-- (FairGroups.PUSH_HOLD_MILLIS), in their fair-queue groups (RedisFairGroups), in order, in one
-- step: one without a group, or of a quiet group, is released; one of a noisy group (at least
-- ARGV[2] released and more than ARGV[3] percent of the queue's released grouped messages) is held
-- at the end of its group's list, its hold made ARGV[6] ms longer (a year: until a receive releases
-- it). A release ends the message's hold here, as end-delay.lua does, in the same step: an instance
-- killed between the two would leave it counted released and held. An instance killed between the
-- push and this script leaves the messages in no group, their holds ending after that moment:
-- delivered as ungrouped ones would be; if the moment passed before this script ran (a message no
-- longer held), the message is left so, in no group.
-- KEYS: released id -> group, held id -> group, group -> released count, released total,
--   groups holding messages (round-robin list), group -> held count, then the core's ready list
--   and delayed set
-- ARGV: the prefix of the groups' held lists (on the queue's slot), min, percent, queue, channel,
--   how much longer a noisy group's message is held (ms), then each message's id and group ('':
--   none)
-- Returns per message 1 if released, 0 if held, -1 if it is no longer held (purged, or its push's
-- hold ended): nothing kept.
local total = tonumber(redis.call('GET', KEYS[4]) or '0')
local out, announce = {}, false
for i = 7, #ARGV, 2 do
  local id, group = ARGV[i], ARGV[i + 1]
  local count = 0
  if group ~= '' then
    count = tonumber(redis.call('HGET', KEYS[3], group) or '0')
  end
  if group ~= '' and count >= tonumber(ARGV[2]) and count * 100 > tonumber(ARGV[3]) * total then
    local due = redis.call('ZSCORE', KEYS[8], id)
    if due then
      redis.call('ZADD', KEYS[8], 'XX', tonumber(due) + tonumber(ARGV[6]), id)
      redis.call('RPUSH', ARGV[1] .. group, id)
      redis.call('HSET', KEYS[2], id, group)
      if redis.call('HINCRBY', KEYS[6], group, 1) == 1 then
        redis.call('RPUSH', KEYS[5], group)
      end
      out[#out + 1] = 0
    else
      out[#out + 1] = -1
    end
  elseif redis.call('ZREM', KEYS[8], id) == 0 then
    out[#out + 1] = -1
  else
    if group ~= '' then
      redis.call('HSET', KEYS[1], id, group)
      redis.call('HINCRBY', KEYS[3], group, 1)
      total = redis.call('INCR', KEYS[4])
    end
    if redis.call('RPUSH', KEYS[7], id) == 1 then
      announce = true
    end
    out[#out + 1] = 1
  end
end
if announce then
  redis.call('PUBLISH', ARGV[5], '0 ' .. ARGV[4])
end
return out
