-- A queue's held messages, ready, in flight or delayed: the fields of its bodies hash (stats.lua's
-- fourth count alone). The gauges' reading of every queue (RedisQS#totals) needs no more.
-- KEYS: bodies
return redis.call('HLEN', KEYS[1])
