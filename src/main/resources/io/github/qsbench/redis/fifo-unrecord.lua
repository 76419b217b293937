-- Forgets FIFO sends' records, taken or not (RedisFifoSends).
-- KEYS: the queue's sends in progress, its records taken (sorted sets)
-- ARGV: the ids
for i = 1, #ARGV do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('ZREM', KEYS[2], ARGV[i])
end
return #ARGV
