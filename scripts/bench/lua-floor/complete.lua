-- Probe only (redis.sh's redis-lua-floor setup): a completion of one command, LPOP of the in-flight
-- list (raw Redis's LREM needs the body, which the strategy's completion does not send), sent as the
-- strategy's complete.lua (EVALSHA, the same 5 keys and 5 arguments); answers as it does.
-- KEYS: the in-flight list is the second (the rest unused)
redis.call('LPOP', KEYS[2])
return {0}
