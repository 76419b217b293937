-- Probe only (redis.sh's redis-lua-floor setup): raw Redis's lease, LMOVE to an in-flight list,
-- sent as the strategy's lease.lua (EVALSHA, the same 5 keys and 3 arguments); answers as it does,
-- every message as id 1, delivery 1 (complete.lua's probe ignores the id).
-- KEYS: ready, then the in-flight list (in the leased set's place; the rest unused)
local body = redis.call('LMOVE', KEYS[1], KEYS[2], 'LEFT', 'RIGHT')
if not body then
  return {}
end
return {1, 1, body}
