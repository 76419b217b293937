-- Probe only (see push.lua): a lease of one message on the Streams design, in the strategy's
-- order: first a message whose lease lapsed, then a delayed message now due (a sorted set beside
-- the stream, as lease.lua looks at its delayed set), then the next new entry (XREADGROUP:
-- delivery 1).
-- A lease of its own length, as the strategy's: the group's pending list keeps each delivery's
-- time, and XAUTOCLAIM takes an entry idle for longer than it is given. Given the longest lease
-- (maxLeaseMillis) as that idle time, a delivery whose time is set to its lease's end less the
-- longest lease lapses exactly at its end; XCLAIM ... TIME sets it (a time in the past, which
-- Redis keeps: one in the future it would clamp to now), JUSTID leaving the count alone. The
-- catch: XAUTOCLAIM scans the pending list in id order, ten entries a call at COUNT 1, so with
-- leases of mixed lengths a lapsed one behind ten live ones is found only by a later call that
-- starts further on.
-- KEYS: the queue's stream, its delayed set (each member a body, scored by the time it is due)
-- ARGV: group, consumer, leaseMillis, now, maxLeaseMillis
-- Returns {id, delivery, body}, or {} when nothing is ready.
local group, consumer = ARGV[1], ARGV[2]
local lapses = tostring(tonumber(ARGV[4]) + tonumber(ARGV[3]) - tonumber(ARGV[5]))
local claimed = redis.call('XAUTOCLAIM', KEYS[1], group, consumer, ARGV[5], '0-0', 'COUNT', '1')[2][1]
if claimed then
  redis.call('XCLAIM', KEYS[1], group, consumer, '0', claimed[1], 'TIME', lapses, 'JUSTID')
  local pending = redis.call('XPENDING', KEYS[1], group, claimed[1], claimed[1], 1)[1]
  return {claimed[1], pending[4], claimed[2][2]}
end
local due = redis.call('ZRANGE', KEYS[2], '-inf', ARGV[4], 'BYSCORE', 'LIMIT', '0', '1')[1]
if due then
  -- due now: appended to the stream, to be read below as a new entry
  redis.call('ZREM', KEYS[2], due)
  redis.call('XADD', KEYS[1], '*', 'b', due)
end
local read = redis.call('XREADGROUP', 'GROUP', group, consumer, 'COUNT', '1', 'STREAMS', KEYS[1], '>')
if not read then
  return {}
end
local entry = read[1][2][1]
redis.call('XCLAIM', KEYS[1], group, consumer, '0', entry[1], 'TIME', lapses, 'JUSTID')
return {entry[1], 1, entry[2][2]}
