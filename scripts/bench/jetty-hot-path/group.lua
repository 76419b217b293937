-- A probe's script, not the product's (JettyHotPath's redis-group way): the pushes, polls and
-- completions that one pass of the probe's selector read, on any queues, in one call. Each
-- operation makes the same Redis calls as the single-message path of push.lua, lease.lua or
-- complete.lua (a push not delayed, a lease of one, a completion naming no delivery) and
-- answers what that script answers, but that a completion that is not the common one (a
-- message not leased) answers 1, NOT_FOUND, without complete.lua's finer decision.
-- KEYS: ids, queues (the registry), then each operation's queue's ready, leased, delayed,
--   bodies, deliveries
-- ARGV: now, leaseMillis, maxMessages, channel, then for each operation: 'p' (push), 'l'
--   (lease) or 'c' (complete), its queue's name, and the body (push), the id (complete) or ''
local out = {}
local ends = tonumber(ARGV[1]) + tonumber(ARGV[2])
for op = 0, (#ARGV - 4) / 3 - 1 do
  local kind, queue, value = ARGV[5 + 3 * op], ARGV[6 + 3 * op], ARGV[7 + 3 * op]
  local ready, leased, delayed, bodies, deliveries = KEYS[3 + 5 * op], KEYS[4 + 5 * op], KEYS[5 + 5 * op],
    KEYS[6 + 5 * op], KEYS[7 + 5 * op]
  if kind == 'p' then
    local held = redis.call('HLEN', bodies)
    if held + 1 > tonumber(ARGV[3]) then
      out[#out + 1] = redis.error_reply('CAP the queue holds its maximum of messages')
    else
      local id = string.format('%d', redis.call('INCRBY', KEYS[1], 1))
      redis.call('HSET', bodies, id, value)
      redis.call('HSET', deliveries, id, '0')
      if redis.call('RPUSH', ready, id) == 1 then
        redis.call('PUBLISH', ARGV[4], '0 ' .. queue)
      end
      if held == 0 then
        redis.call('SADD', KEYS[2], queue)
      end
      out[#out + 1] = {tonumber(id), 0}
    end
  elseif kind == 'l' then
    local id = redis.call('ZRANGE', leased, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', '0', '1')[1]
    if not id then
      id = redis.call('ZRANGE', delayed, '-inf', ARGV[1], 'BYSCORE', 'LIMIT', '0', '1')[1]
      if id then
        redis.call('ZREM', delayed, id)
      else
        id = redis.call('LPOP', ready)
      end
    end
    local body = id and redis.call('HGET', bodies, id)
    if body then
      local delivery = redis.call('HINCRBY', deliveries, id, 1)
      redis.call('ZADD', leased, ends, id)
      out[#out + 1] = {tonumber(id), delivery, body}
    else
      out[#out + 1] = {}
    end
  else
    local code = 1
    if redis.call('ZREM', leased, value) == 1 and redis.call('HDEL', deliveries, value) == 1 then
      redis.call('HDEL', bodies, value)
      code = 0
    end
    out[#out + 1] = {code, 0}
  end
end
return out
