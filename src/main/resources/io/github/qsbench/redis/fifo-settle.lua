-- Settles a FIFO send's claims, or remembers a receive's deliveries (RedisFifoState).
-- KEYS: the queue's window (hash) and its expiry (sorted set), as fifo-claim.lua keeps them
-- ARGV: how long the keys stay in Redis at least, then triples: a field, its value ('' drops the
--   field if it is still a pending claim), and when it leaves the window (service clock)
for i = 2, #ARGV, 3 do
  if ARGV[i + 1] == '' then
    if redis.call('HGET', KEYS[1], ARGV[i]) == 'p' then
      redis.call('HDEL', KEYS[1], ARGV[i])
      redis.call('ZREM', KEYS[2], ARGV[i])
    end
  else
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 0
