-- Pushes ARGV[6..] to one queue, all or none. Ready messages go to the tail of the ready
-- list; delayed ones are "delivery 0 whose lease is its delay": an entry of the delayed set
-- scored by the time they are due. A message gets its entry in the deliveries hash at its
-- first lease (lease.lua's HINCRBY): until then its count is 0, read as a body without one.
-- KEYS: ready, leased, delayed, bodies, deliveries[, ids, queues] (the last two in
--   standalone Redis only; a cluster cannot reach them from a queue's slot)
-- ARGV: now, delayMillis, firstId (0: take ids from KEYS[6]), maxMessages, queue, channel,
--   body...
-- Publishes "<delayMillis> <queue>" on the channel when the ready list was empty or the
-- messages are delayed, so that every instance can wake its long polls on that queue.
-- Returns {firstId, created (1: the queue held nothing and KEYS[7] was not given)}, or the
-- error "CAP ..." if the queue would hold more than maxMessages.
local count = #ARGV - 6
local held = redis.call('HLEN', KEYS[4])
if held + count > tonumber(ARGV[4]) then
  return redis.error_reply('CAP the queue holds its maximum of messages')
end
-- The first id as Redis takes it, a string: Redis 7.0 formats a Lua number given to
-- redis.call with "%.17g" each time (see lease.lua), and one message takes its id by INCR,
-- which needs no number.
local first, firstId
if ARGV[3] ~= '0' then
  first, firstId = tonumber(ARGV[3]), ARGV[3]
else
  if count == 1 then
    first = redis.call('INCR', KEYS[6])
  else
    first = redis.call('INCRBY', KEYS[6], count) - count + 1
  end
  firstId = string.format('%d', first)
end
-- A delay is always announced; a ready push only when the ready list was empty.
local delayed = ARGV[2] ~= '0'
local announce = delayed
if count == 1 and not delayed then
  -- One message, not delayed, the common push: the same records as below, without the tables.
  redis.call('HSET', KEYS[4], firstId, ARGV[7])
  announce = redis.call('RPUSH', KEYS[1], firstId) == 1
else
  -- One command per record for the whole batch, in parts small enough for Lua's unpack.
  local due = tonumber(ARGV[1]) + tonumber(ARGV[2])
  for from = 1, count, 500 do
    local bodies, entries = {}, {}
    for i = from, math.min(from + 499, count) do
      local id = first + i - 1
      bodies[#bodies + 1] = id
      bodies[#bodies + 1] = ARGV[6 + i]
      if delayed then
        entries[#entries + 1] = due
      end
      entries[#entries + 1] = id
    end
    redis.call('HSET', KEYS[4], unpack(bodies))
    if delayed then
      redis.call('ZADD', KEYS[3], unpack(entries))
    elseif redis.call('RPUSH', KEYS[1], unpack(entries)) == #entries and from == 1 then
      announce = true
    end
  end
end
if announce then
  redis.call('PUBLISH', ARGV[6], ARGV[2] .. ' ' .. ARGV[5])
end
local created = 0
if held == 0 then
  if KEYS[7] then
    redis.call('SADD', KEYS[7], ARGV[5])
  else
    created = 1
  end
end
return {first, created}
