-- Leases up to ARGV[2] messages: first those whose lease lapsed (longest lapsed first),
-- then delayed ones that are due (earliest first), then the ready list from its head. Each
-- delivery's number is counted in the deliveries hash and its lease end is its score in
-- the leased set. One command per record for all of them, but the count of each delivery.
-- KEYS: ready, leased, delayed, bodies, deliveries
-- ARGV: now, max, leaseEnd (when the leases end: now and their length, added by the caller)
-- Returns {id, delivery, body, id, delivery, body, ...}
-- Redis's arguments are the strings given, never Lua numbers: Redis 7.0 formats a number
-- with "%.17g" on each call, and a tonumber of an argument is a strtod, which together
-- took 3-4% of Redis's time a push-lease-complete cycle (scripts/bench/redis-perf.sh)
-- before the single-message paths stopped making them.
-- One message, the common poll: the same order and records as below, without the tables.
if ARGV[2] == '1' then
  local id = redis.call('ZRANGE', KEYS[2], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', '0', '1')[1]
  if not id then
    id = redis.call('ZRANGE', KEYS[3], '-inf', ARGV[1], 'BYSCORE', 'LIMIT', '0', '1')[1]
    if id then
      redis.call('ZREM', KEYS[3], id)
    else
      id = redis.call('LPOP', KEYS[1])
    end
  end
  if not id then
    return {}
  end
  local body = redis.call('HGET', KEYS[4], id)
  if not body then
    return {}
  end
  local delivery = redis.call('HINCRBY', KEYS[5], id, '1')
  redis.call('ZADD', KEYS[2], ARGV[3], id)
  return {tonumber(id), delivery, body}
end
local now = ARGV[1]
local max = tonumber(ARGV[2])
local ends = ARGV[3]
-- Calls Redis with the values of list after args, in parts small enough for Lua's unpack
-- (of an even size, so pairs stay whole), and returns the replies' elements in order.
local function inParts(command, key, list)
  local replies = {}
  for from = 1, #list, 1000 do
    local reply = redis.call(command, key, unpack(list, from, math.min(from + 999, #list)))
    if type(reply) == 'table' then
      for i = 1, #reply do
        replies[#replies + 1] = reply[i]
      end
    end
  end
  return replies
end
local ids = redis.call('ZRANGE', KEYS[2], '-inf', now, 'BYSCORE', 'LIMIT', '0', ARGV[2])
if #ids < max then
  local due = redis.call('ZRANGE', KEYS[3], '-inf', now, 'BYSCORE', 'LIMIT', 0, max - #ids)
  if #due > 0 then
    inParts('ZREM', KEYS[3], due)
    for _, id in ipairs(due) do
      ids[#ids + 1] = id
    end
  end
end
if #ids < max then
  local ready = redis.call('LPOP', KEYS[1], max - #ids)
  if ready then
    for _, id in ipairs(ready) do
      ids[#ids + 1] = id
    end
  end
end
if #ids == 0 then
  return {}
end
local bodies = inParts('HMGET', KEYS[4], ids)
local out, leased = {}, {}
for i, id in ipairs(ids) do
  local body = bodies[i]
  if body then
    out[#out + 1] = tonumber(id)
    out[#out + 1] = redis.call('HINCRBY', KEYS[5], id, '1')
    out[#out + 1] = body
    leased[#leased + 1] = ends
    leased[#leased + 1] = id
  end
end
if #leased > 0 then
  inParts('ZADD', KEYS[2], leased)
end
return out
