-- The source's active message move task, for an instance to step (RedisMoveTasks).
-- KEYS: the source's tasks (hash, as move-start.lua keeps it)
-- ARGV: the asking instance (owner), now and the heartbeat timeout (service clock, ms)
-- Returns {'none'} if no task is active; {'busy'} if another owner runs it and beat within the
-- timeout; else the owner is the asking instance, its heartbeat now, and the answer is 'mine',
-- the handle, then the task's record as attribute/value pairs.
local handle = redis.call('HGET', KEYS[1], 'active')
if not handle then
  return {'none'}
end
local owner = redis.call('HGET', KEYS[1], handle .. '.owner')
local beat = tonumber(redis.call('HGET', KEYS[1], handle .. '.beat') or '0')
if owner ~= ARGV[1] and tonumber(ARGV[2]) - beat < tonumber(ARGV[3]) then
  return {'busy'}
end
redis.call('HSET', KEYS[1], handle .. '.owner', ARGV[1], handle .. '.beat', ARGV[2])
local answer = {'mine', handle}
local prefix = handle .. '.'
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, #prefix) == prefix then
    answer[#answer + 1] = string.sub(field, #prefix + 1)
    answer[#answer + 1] = redis.call('HGET', KEYS[1], field)
  end
end
return answer
