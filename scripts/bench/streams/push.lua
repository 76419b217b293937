-- Probe only (RequestPathLoad's redis-streams-lua mode, scripts/bench/redis.sh): a push on the
-- Streams design docs/redis.md proposes, with the one check the strategy's push.lua makes on
-- every push: the queue's cap. The stream holds every message not completed (ready and leased),
-- so its length is what push.lua reads with HLEN of the bodies.
-- KEYS: the queue's stream (its consumer group made beforehand)
-- ARGV: maxMessages, body
-- Returns the entry's id, or the error "CAP ..." if the queue would hold more than maxMessages.
if redis.call('XLEN', KEYS[1]) >= tonumber(ARGV[1]) then
  return redis.error_reply('CAP the queue holds its maximum of messages')
end
return redis.call('XADD', KEYS[1], '*', 'b', ARGV[2])
