-- Claims a FIFO send's deduplication keys and numbers the new ones (RedisFifoState), and, given
-- the queue's sends in progress, records the messages of the keys it claims there before they
-- are pushed (RedisFifoSends), under ids from ARGV[4] on, or, if it is '0', taken here from the
-- id counter (KEYS[5], standalone Redis only: a cluster cannot reach it from a queue's slot):
-- claimed, numbered and recorded in one step, one call where they were three.
-- KEYS: the queue's sequence, its window (hash: 'd:<key>' the original's answer or 'p' while
--   claimed, 'a:<attempt>' a receive's deliveries), its expiry (sorted set: each field by when
--   it leaves the window, by the service's clock)[, its sends in progress (sorted set: each
--   message id by its send's claim time)[, the id counter]]
-- ARGV: now, how long an answer stays, how long a claim stays pending, the first id of the
--   messages to record (one per key claimed, in order; '0': from KEYS[5], or none without
--   KEYS[4]), then the keys
-- Returns the first sequence number claimed ('0' if nothing was claimed because a key is
-- pending), the first id recorded ('0' if none), then per key: 'p' if another send claimed it
-- and has not settled, the original's 'id:sequence', or '' if this call claimed it. Claims
-- nothing while any key is pending.
local now = tonumber(ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 1000)
for _, field in ipairs(gone) do
  redis.call('HDEL', KEYS[2], field)
  redis.call('ZREM', KEYS[3], field)
end
local found = {}
local claimed = 0
local pending = false
for i = 5, #ARGV do
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
  table.insert(found, 1, '0')
  return found
end
local pendingUntil = now + tonumber(ARGV[3])
for i = 5, #ARGV do
  if found[i - 4] == '' then
    redis.call('HSET', KEYS[2], 'd:' .. ARGV[i], 'p')
    redis.call('ZADD', KEYS[3], pendingUntil, 'd:' .. ARGV[i])
  end
end
local first = redis.call('INCRBY', KEYS[1], claimed) - claimed + 1
local firstId = 0
if KEYS[4] and claimed > 0 then
  firstId = tonumber(ARGV[4])
  if firstId == 0 then
    firstId = redis.call('INCRBY', KEYS[5], claimed) - claimed + 1
  end
  local entries = {}
  for i = 0, claimed - 1 do
    entries[#entries + 1] = ARGV[1]
    entries[#entries + 1] = string.format('%d', firstId + i)
  end
  redis.call('ZADD', KEYS[4], unpack(entries))
end
local keep = tonumber(ARGV[2]) + tonumber(ARGV[3])
redis.call('PEXPIRE', KEYS[2], keep)
redis.call('PEXPIRE', KEYS[3], keep)
table.insert(found, 1, string.format('%d', firstId))
table.insert(found, 1, tostring(first))
return found
