-- Probe only (redis.sh's redis-lua-floor setup): raw Redis's push, one list command, called from a
-- script that RequestPathLoad's redis-lua mode sends as it sends the strategy's push.lua (EVALSHA,
-- the same 7 keys and 7 arguments), so that the probe's cost beyond raw Redis's is what a script
-- call itself costs Redis: the floor under any design of the strategy's scripts.
-- KEYS: ready (the rest unused); ARGV[7]: the body (the rest unused)
redis.call('RPUSH', KEYS[1], ARGV[7])
return {1, 0}
