-- Creates a queue explicitly if it was not (its settings hash, which holds the field
-- 'explicit' as long as the queue exists), then sets or removes settings and tags of its
-- own, and announces the change; or, if the change would leave the queue more tags than
-- allowed, changes nothing.
-- KEYS: settings[, explicit] (the registry of names: standalone Redis only; a cluster
--   cannot reach it from the queue's slot)
-- ARGV: queue, channel, the most tags a queue may carry, then triples of an operation
--   ('S' sets the field to the value, 'N' sets it unless it has one, 'D' removes it, 'E'
--   expects it to have the value, '' meaning absent), a field and a value; a tag's field is
--   'tag:<key>', and no field is set or removed twice
-- Publishes the queue's name on the channel, so that every instance drops what it cached.
-- Returns 1 if it created the queue, 0 if it existed, 2 if an expected value did not hold
-- (nothing changed), minus the count of tags the change would have left if that is over the most.
for i = 4, #ARGV, 3 do
  if ARGV[i] == 'E' and (redis.call('HGET', KEYS[1], ARGV[i + 1]) or '') ~= ARGV[i + 2] then
    return 2
  end
end
local tags = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 4) == 'tag:' then
    tags = tags + 1
  end
end
for i = 4, #ARGV, 3 do
  if string.sub(ARGV[i + 1], 1, 4) == 'tag:' then
    local exists = redis.call('HEXISTS', KEYS[1], ARGV[i + 1]) == 1
    if ARGV[i] == 'S' and not exists then
      tags = tags + 1
    elseif ARGV[i] == 'D' and exists then
      tags = tags - 1
    end
  end
end
if tags > tonumber(ARGV[3]) then
  return -tags
end
local created = redis.call('HSETNX', KEYS[1], 'explicit', '1')
for i = 4, #ARGV, 3 do
  if ARGV[i] == 'S' then
    redis.call('HSET', KEYS[1], ARGV[i + 1], ARGV[i + 2])
  elseif ARGV[i] == 'N' then
    redis.call('HSETNX', KEYS[1], ARGV[i + 1], ARGV[i + 2])
  elseif ARGV[i] == 'D' then
    redis.call('HDEL', KEYS[1], ARGV[i + 1])
  end
end
if KEYS[2] then
  redis.call('SADD', KEYS[2], ARGV[1])
end
redis.call('PUBLISH', ARGV[2], ARGV[1])
return created
