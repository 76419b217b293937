-- Probe only (see push.lua): a completion naming no delivery on the Streams design: the
-- delivery leaves the group's pending list (XACK) and the message the stream (XDEL).
-- KEYS: the queue's stream
-- ARGV: group, id
-- Returns 0 (completed), or 1 (not found: not leased, or gone), complete.lua's codes.
if redis.call('XACK', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  return 1
end
redis.call('XDEL', KEYS[1], ARGV[2])
return 0
