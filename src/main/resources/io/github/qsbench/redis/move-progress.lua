-- Counts a batch of a message move task's moves, forgets the moves it recorded (move-record.lua)
-- and beats its owner's heartbeat (RedisMoveTasks).
-- KEYS: the source's tasks (hash, as move-start.lua keeps it)
-- ARGV: handle, owner, now (service clock), how many moved
-- Returns the task's status (CANCELLING is the cancel flag), or '' if the task is not active or
-- another owner took it over.
local handle = ARGV[1]
if redis.call('HGET', KEYS[1], 'active') ~= handle or redis.call('HGET', KEYS[1], handle .. '.owner') ~= ARGV[2] then
  return ''
end
redis.call('HINCRBY', KEYS[1], handle .. '.moved', ARGV[4])
redis.call('HDEL', KEYS[1], handle .. '.moving')
redis.call('HSET', KEYS[1], handle .. '.beat', ARGV[3])
return redis.call('HGET', KEYS[1], handle .. '.status')
