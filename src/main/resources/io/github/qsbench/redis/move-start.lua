-- Registers a message move task as its source's active task unless one is active (RedisMoveTasks).
-- KEYS: the source's tasks (hash: 'active' the active task's handle, 'order' the kept handles
--   newest first, '<handle>.<attribute>' each kept task's record)[, the handles' index (hash:
--   handle -> source), the set of sources with an active task] (the last two standalone only)
-- ARGV: source, handle, how many tasks are kept per source, then attribute/value pairs
-- Returns 0 if a task is active; else 1, then the handles no longer kept (their record is gone).
if redis.call('HEXISTS', KEYS[1], 'active') == 1 then
  return {0}
end
local handle = ARGV[2]
for i = 4, #ARGV, 2 do
  redis.call('HSET', KEYS[1], handle .. '.' .. ARGV[i], ARGV[i + 1])
end
redis.call('HSET', KEYS[1], 'active', handle)
local kept = {handle}
local answer = {1}
local order = redis.call('HGET', KEYS[1], 'order') or ''
for old in string.gmatch(order, '%S+') do
  if #kept < tonumber(ARGV[3]) then
    kept[#kept + 1] = old
  else
    answer[#answer + 1] = old
    local fields = {}
    for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
      if string.sub(field, 1, #old + 1) == old .. '.' then
        fields[#fields + 1] = field
      end
    end
    if #fields > 0 then
      redis.call('HDEL', KEYS[1], unpack(fields))
    end
    if KEYS[2] then
      redis.call('HDEL', KEYS[2], old)
    end
  end
end
redis.call('HSET', KEYS[1], 'order', table.concat(kept, ' '))
if KEYS[2] then
  redis.call('HSET', KEYS[2], handle, ARGV[1])
  redis.call('SADD', KEYS[3], ARGV[1])
end
return answer
