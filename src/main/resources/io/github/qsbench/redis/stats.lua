-- A queue's counts at one moment. Ready: the ready list and delayed messages now due; in
-- flight: every delivered message not completed (a lapsed lease counts until it is
-- delivered again); delayed: those not yet due.
-- KEYS: ready, leased, delayed, bodies, deliveries
-- ARGV: now
-- Returns {ready, inFlight, delayed, held, lapsed}
local now = tonumber(ARGV[1])
local due = redis.call('ZCOUNT', KEYS[3], '-inf', now)
return {redis.call('LLEN', KEYS[1]) + due, redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3]) - due,
  redis.call('HLEN', KEYS[4]), redis.call('ZCOUNT', KEYS[2], '-inf', now)}
