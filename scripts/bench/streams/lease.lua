-- Probe only (see push.lua): a lease of one message on the Streams design, in the strategy's
-- order: first a message whose lease lapsed (the group's pending list holds each delivery with
-- its time; XAUTOCLAIM takes one idle for longer than a lease and counts the delivery), then a
-- delayed message now due (a sorted set beside the stream, as lease.lua looks at its delayed
-- set), then the next new entry (XREADGROUP: delivery 1). Unlike lease.lua, a lease's length is
-- the queue's (the idle time XAUTOCLAIM is given), not the poll's.
-- KEYS: the queue's stream, its delayed set (each member a body, scored by the time it is due)
-- ARGV: group, consumer, leaseMillis, now
-- Returns {id, delivery, body}, or {} when nothing is ready.
local claimed = redis.call('XAUTOCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[3], '0-0', 'COUNT', '1')[2][1]
if claimed then
  local pending = redis.call('XPENDING', KEYS[1], ARGV[1], claimed[1], claimed[1], 1)[1]
  return {claimed[1], pending[4], claimed[2][2]}
end
local due = redis.call('ZRANGE', KEYS[2], '-inf', ARGV[4], 'BYSCORE', 'LIMIT', '0', '1')[1]
if due then
  -- due now: appended to the stream, to be read below as a new entry
  redis.call('ZREM', KEYS[2], due)
  redis.call('XADD', KEYS[1], '*', 'b', due)
end
local read = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', '1', 'STREAMS', KEYS[1], '>')
if not read then
  return {}
end
local entry = read[1][2][1]
return {entry[1], 1, entry[2][2]}
