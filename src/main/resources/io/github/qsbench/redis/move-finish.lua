-- Ends a message move task, if the caller owns it and it is active (RedisMoveTasks).
-- KEYS: the source's tasks (hash, as move-start.lua keeps it)[, the set of sources with an
--   active task (standalone only)]
-- ARGV: handle, owner, status, failure reason ('' for none), source
-- A task ending COMPLETED whose cancel flag is set (CANCELLING) ends CANCELLED; the moves it
-- recorded (move-record.lua) are forgotten.
-- Returns 1 if it ended it, else 0.
local handle = ARGV[1]
if redis.call('HGET', KEYS[1], 'active') ~= handle or redis.call('HGET', KEYS[1], handle .. '.owner') ~= ARGV[2] then
  return 0
end
local status = ARGV[3]
if status == 'COMPLETED' and redis.call('HGET', KEYS[1], handle .. '.status') == 'CANCELLING' then
  status = 'CANCELLED'
end
redis.call('HSET', KEYS[1], handle .. '.status', status)
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], handle .. '.reason', ARGV[4])
end
redis.call('HDEL', KEYS[1], 'active', handle .. '.moving')
if KEYS[2] then
  redis.call('SREM', KEYS[2], ARGV[5])
end
return 1
