-- Completes the source message of a message move task's move as complete.lua completes it, only
-- if the caller still runs the task and the move is still recorded in its batch's 'moving'
-- (RedisQS#completeFenced, with the fence RedisMoveTasks made): an owner stalled past the
-- heartbeat timeout while another instance took the task over (move-claim.lua) and settled its
-- batch (a source message still there: its copy discarded, the message to move again) completes
-- nothing, so it cannot take away a message whose copy is gone.
-- KEYS: ready, leased, delayed, bodies, deliveries, the source's tasks (hash, as move-start.lua
--   keeps it, on the same slot)
-- ARGV: id, delivery (0: any), handle, owner, the move as move-record.lua recorded it (its line,
--   without the newline)
-- Returns FENCED if the caller no longer runs the task or the move is no longer recorded (nothing
-- done), else the completion's code, as complete.lua answers it.
local COMPLETED, NOT_FOUND, NOT_DELIVERED, STALE_LEASE = 0, 1, 2, 3
local FENCED = 4
local handle = ARGV[3]
if redis.call('HGET', KEYS[6], 'active') ~= handle or redis.call('HGET', KEYS[6], handle .. '.owner') ~= ARGV[4] then
  return FENCED
end
local moving = redis.call('HGET', KEYS[6], handle .. '.moving')
if not moving or not string.find('\n' .. moving, '\n' .. ARGV[5] .. '\n', 1, true) then
  return FENCED
end
local id = ARGV[1]
local deliveries = redis.call('HGET', KEYS[5], id)
if deliveries then
  deliveries = tonumber(deliveries)
elseif redis.call('HEXISTS', KEYS[4], id) == 1 then
  deliveries = 0 -- never delivered: push.lua writes no count
else
  return NOT_FOUND
end
if deliveries == 0 then
  return NOT_DELIVERED
end
local delivery = tonumber(ARGV[2])
if delivery ~= 0 and delivery ~= deliveries then
  return STALE_LEASE
end
redis.call('HDEL', KEYS[4], id)
redis.call('HDEL', KEYS[5], id)
if redis.call('ZREM', KEYS[2], id) == 0 and redis.call('ZREM', KEYS[3], id) == 0 then
  redis.call('LREM', KEYS[1], 1, id)
end
return COMPLETED
