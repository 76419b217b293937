-- Forgets FIFO sends' records, taken or not (RedisFifoSends): one ZREM a key.
-- KEYS: the queue's sends in progress, its records taken (sorted sets)
-- ARGV: the ids (a take's: at most 2,000; a send's batch: at most 100)
if #ARGV == 0 then
  return 0
end
redis.call('ZREM', KEYS[1], unpack(ARGV))
redis.call('ZREM', KEYS[2], unpack(ARGV))
return #ARGV
