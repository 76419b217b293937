-- Up to ARGV[2] messages from the head of each of the queue's records (the ready list,
-- the leased and the delayed set, each in the order a lease would take them) with their
-- state (a Peeked.State's code, below, pinned by RedisCodesTests) and delivery count; the caller merges them by
-- id. Leases nothing.
-- KEYS: ready, leased, delayed, bodies, deliveries
-- ARGV: now, max
-- Returns {id, state, deliveries, body, ...}
local READY, IN_FLIGHT, DELAYED = 0, 1, 2
local now = tonumber(ARGV[1])
local last = tonumber(ARGV[2]) - 1
local out = {}
local function add(id, state)
  local body = redis.call('HGET', KEYS[4], id)
  if body then
    out[#out + 1] = tonumber(id)
    out[#out + 1] = state
    out[#out + 1] = tonumber(redis.call('HGET', KEYS[5], id) or '0') -- no count: never delivered
    out[#out + 1] = body
  end
end
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, last)) do
  add(id, READY)
end
local timed = function(key, notDue)
  local entries = redis.call('ZRANGE', key, 0, last, 'WITHSCORES')
  for i = 1, #entries, 2 do
    add(entries[i], (tonumber(entries[i + 1]) <= now) and READY or notDue)
  end
end
timed(KEYS[2], IN_FLIGHT)
timed(KEYS[3], DELAYED)
return out
