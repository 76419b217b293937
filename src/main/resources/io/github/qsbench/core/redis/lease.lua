-- Leases up to ARGV[2] messages: first those whose lease lapsed (longest lapsed first),
-- then delayed ones that are due (earliest first), then the ready list from its head. Each
-- delivery's number is counted in the deliveries hash and its lease end is its score in
-- the leased set.
-- KEYS: ready, leased, delayed, bodies, deliveries
-- ARGV: now, max, leaseMillis
-- Returns {id, delivery, body, id, delivery, body, ...}
local now = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local ends = now + tonumber(ARGV[3])
local out = {}
local taken = 0
local function deliver(id)
  local body = redis.call('HGET', KEYS[4], id)
  if not body then
    return
  end
  local delivery = redis.call('HINCRBY', KEYS[5], id, 1)
  redis.call('ZADD', KEYS[2], ends, id)
  out[#out + 1] = tonumber(id)
  out[#out + 1] = delivery
  out[#out + 1] = body
  taken = taken + 1
end
local lapsed = redis.call('ZRANGE', KEYS[2], '-inf', now, 'BYSCORE', 'LIMIT', 0, max)
for _, id in ipairs(lapsed) do
  deliver(id)
end
if taken < max then
  local due = redis.call('ZRANGE', KEYS[3], '-inf', now, 'BYSCORE', 'LIMIT', 0, max - taken)
  for _, id in ipairs(due) do
    redis.call('ZREM', KEYS[3], id)
    deliver(id)
  end
end
while taken < max do
  local id = redis.call('LPOP', KEYS[1])
  if not id then
    break
  end
  deliver(id)
end
return out
