-- Records the moves a batch of a message move task is about to make, before it pushes the first
-- copy (RedisMoveTasks), if the caller owns the task and it is active: a step that finds them
-- still recorded (the batch did not end: its instance died) settles them first.
-- move-progress.lua and move-finish.lua forget them.
-- KEYS: the source's tasks (hash, as move-start.lua keeps it)
-- ARGV: handle, owner, the moves (one a line: source id, delivery, copy id, target)
-- Returns 1 if it recorded them, else 0.
local handle = ARGV[1]
if redis.call('HGET', KEYS[1], 'active') ~= handle or redis.call('HGET', KEYS[1], handle .. '.owner') ~= ARGV[2] then
  return 0
end
redis.call('HSET', KEYS[1], handle .. '.moving', ARGV[3])
return 1
