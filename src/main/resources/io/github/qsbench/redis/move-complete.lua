-- Completes the source message of a message move task's move as complete.lua completes it, only
-- if the caller still runs the task and the move is still recorded in its batch's 'moving'
-- (RedisQS#completeFenced, with the fence RedisMoveTasks made): an owner stalled past the
-- heartbeat timeout while another instance took the task over (move-claim.lua) and settled its
-- batch (a source message still there: its copy discarded, the message to move again) completes
-- nothing, so it cannot take away a message whose copy is gone. complete.lua runs unchanged, as
-- the local function complete (LuaScript.composed puts it before this script), so the completion's
-- rules are written once.
-- KEYS: ready, leased, delayed, bodies, deliveries (complete.lua's), the source's tasks (hash, as
--   move-start.lua keeps it, on the same slot)
-- ARGV: id, delivery (0: any), handle, owner, the move as move-record.lua recorded it (its line,
--   without the newline)
-- Returns FENCED if the caller no longer runs the task or the move is no longer recorded (nothing
-- done), else the completion's code, as complete.lua answers it.
local FENCED = 4
local handle = ARGV[3]
if redis.call('HGET', KEYS[6], 'active') ~= handle or redis.call('HGET', KEYS[6], handle .. '.owner') ~= ARGV[4] then
  return FENCED
end
local moving = redis.call('HGET', KEYS[6], handle .. '.moving')
if not moving or not string.find('\n' .. moving, '\n' .. ARGV[5] .. '\n', 1, true) then
  return FENCED
end
-- complete.lua's arguments: the operation, now and a lease's length (neither read by a
-- completion), then the message's id and delivery
return complete(KEYS, {'complete', '0', '0', ARGV[1], ARGV[2]})[1]
