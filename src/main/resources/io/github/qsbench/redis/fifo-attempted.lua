-- What a FIFO receive with this attempt id delivered, if still in the window, or marks the attempt
-- pending (RedisFifoState): SET NX PX with a pending marker, as fifo-claim.lua claims a send's
-- deduplication ids.
-- KEYS: the queue's window (hash) and its expiry (sorted set)
-- ARGV: the field ('a:<attempt id>'), now (service clock), until when a new marker holds, how
--   long the keys stay in Redis at least
-- Returns the encoded deliveries; 'p' while another receive with this attempt id runs; '' when
-- this call marked it pending (the caller receives, then fifo-settle.lua writes or drops it).
local until_ = redis.call('ZSCORE', KEYS[2], ARGV[1])
if until_ and tonumber(until_) > tonumber(ARGV[2]) then
  local value = redis.call('HGET', KEYS[1], ARGV[1])
  if value then
    return value
  end
end
redis.call('HSET', KEYS[1], ARGV[1], 'p')
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return ''
