-- Sets a running message move task's cancel flag: its status becomes CANCELLING (RedisMoveTasks).
-- KEYS: the source's tasks (hash, as move-start.lua keeps it)
-- ARGV: handle
-- Returns the status the task had, or '' if the source keeps no such task.
local status = redis.call('HGET', KEYS[1], ARGV[1] .. '.status')
if not status then
  return ''
end
if status == 'RUNNING' then
  redis.call('HSET', KEYS[1], ARGV[1] .. '.status', 'CANCELLING')
end
return status
