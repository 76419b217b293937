-- A standard queue's fair-queue groups, counted at one moment (RedisFairGroups).
-- KEYS: as fair-append's
-- Returns {released total, {group, released count, ...}, {group, held count, ...}}
return {redis.call('GET', KEYS[4]) or '0', redis.call('HGETALL', KEYS[3]), redis.call('HGETALL', KEYS[6])}
