-- Claims a FIFO send's deduplication keys and numbers the new ones (RedisFifoState).
-- KEYS: the queue's sequence, its window (hash: 'd:<key>' the original's answer or 'p' while
--   claimed, 'a:<attempt>' a receive's deliveries), its expiry (sorted set: each field by when
--   it leaves the window, by the service's clock)
-- ARGV: now, how long an answer stays, how long a claim stays pending, then the keys
-- Returns the first sequence number claimed ('0' if nothing was claimed because a key is
-- pending), then per key: 'p' if another send claimed it and has not settled, the original's
-- 'id:sequence', or '' if this call claimed it. Claims nothing while any key is pending.
local now = tonumber(ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 1000)
for _, field in ipairs(gone) do
  redis.call('HDEL', KEYS[2], field)
  redis.call('ZREM', KEYS[3], field)
end
local found = {}
local claimed = 0
local pending = false
for i = 4, #ARGV do
  local value = redis.call('HGET', KEYS[2], 'd:' .. ARGV[i])
  if value == 'p' then
    pending = true
    found[#found + 1] = 'p'
  elseif value then
    found[#found + 1] = value
  else
    claimed = claimed + 1
    found[#found + 1] = ''
  end
end
if pending then
  table.insert(found, 1, '0')
  return found
end
local pendingUntil = now + tonumber(ARGV[3])
for i = 4, #ARGV do
  if found[i - 3] == '' then
    redis.call('HSET', KEYS[2], 'd:' .. ARGV[i], 'p')
    redis.call('ZADD', KEYS[3], pendingUntil, 'd:' .. ARGV[i])
  end
end
local first = redis.call('INCRBY', KEYS[1], claimed) - claimed + 1
local keep = tonumber(ARGV[2]) + tonumber(ARGV[3])
redis.call('PEXPIRE', KEYS[2], keep)
redis.call('PEXPIRE', KEYS[3], keep)
table.insert(found, 1, tostring(first))
return found
