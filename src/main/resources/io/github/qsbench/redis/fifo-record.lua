-- Records a FIFO send's messages before they are pushed (RedisFifoSends), in one ZADD.
-- KEYS: the queue's sends in progress (sorted set: each message id by its send's claim time)
-- ARGV: the claim time (service clock), the first id, how many (a send's batch: at most 100)
-- Returns how many it recorded.
local first, count = tonumber(ARGV[2]), tonumber(ARGV[3])
local entries = {}
for i = 0, count - 1 do
  entries[#entries + 1] = ARGV[1]
  entries[#entries + 1] = tostring(first + i)
end
return redis.call('ZADD', KEYS[1], unpack(entries))
