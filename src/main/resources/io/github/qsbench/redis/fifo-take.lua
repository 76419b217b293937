-- Takes the FIFO sends' records a settlement is to discard (RedisFifoSends): those as old as the
-- bound, which no commit accepts any more, and those taken as long ago by a settlement that did
-- not forget them (its instance died too). Each is kept, stamped now, until forgotten.
-- KEYS: the queue's sends in progress, its records taken (sorted sets: ids by time)
-- ARGV: now (service clock), the bound
-- Returns the ids taken.
local now = tonumber(ARGV[1])
local stale = now - tonumber(ARGV[2])
local taken = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', stale, 'LIMIT', 0, 1000)
local again = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', stale, 'LIMIT', 0, 1000)
for _, id in ipairs(taken) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('ZADD', KEYS[2], now, id)
end
for _, id in ipairs(again) do
  redis.call('ZADD', KEYS[2], now, id)
  taken[#taken + 1] = id
end
return taken
