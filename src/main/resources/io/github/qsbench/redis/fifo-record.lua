-- Records a FIFO send's messages before they are pushed (RedisFifoSends).
-- KEYS: the queue's sends in progress (sorted set: each message id by its send's claim time)
-- ARGV: the claim time (service clock), the first id, how many
-- Returns how many it recorded.
local first = tonumber(ARGV[2])
for i = 0, tonumber(ARGV[3]) - 1 do
  redis.call('ZADD', KEYS[1], ARGV[1], tostring(first + i))
end
return tonumber(ARGV[3])
