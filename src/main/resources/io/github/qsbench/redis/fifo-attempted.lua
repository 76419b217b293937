-- What a FIFO receive with this attempt id delivered, if still in the window (RedisFifoState).
-- KEYS: the queue's window (hash) and its expiry (sorted set)
-- ARGV: the field ('a:<attempt id>'), now (service clock)
-- Returns the encoded deliveries, or false if none is remembered.
local until_ = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not until_ or tonumber(until_) <= tonumber(ARGV[2]) then
  return false
end
return redis.call('HGET', KEYS[1], ARGV[1])
