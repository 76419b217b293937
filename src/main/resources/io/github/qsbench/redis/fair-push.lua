-- A push to a fair queue in one step (RedisFairGroups.push): push.lua pushes the messages held,
-- then fair-append.lua puts them in their groups, releasing the quiet ones, so that no instance
-- killed between the two leaves them in no group. Both run unchanged, as the local functions push
-- and fair_append (LuaScript.composed puts them before this script), each on its own KEYS and ARGV.
-- KEYS: push.lua's (ARGV[1] of them), then fair-append.lua's
-- ARGV: how many keys are push.lua's, how many messages, push.lua's arguments (its six, then each
--   body), fair-append.lua's six, then each message's group ('': none)
-- Returns {firstId, created, {per message 1 if released, 0 if held}} as push.lua and
-- fair-append.lua answer, or push.lua's error (nothing written).
local keyCount, count = tonumber(ARGV[1]), tonumber(ARGV[2])
-- Each part's keys and arguments by unpack (in C), not copied in a Lua loop: 0.96x the script's
-- time (scripts/bench/redis-fair-scripts.py); a push holds 100 messages at most (Limits.MAX_BATCH),
-- far below the few thousand values unpack can return.
local pushed = push({unpack(KEYS, 1, keyCount)}, {unpack(ARGV, 3, 8 + count)})
if pushed.err then
  return pushed
end
local groups = 2 + 6 + count + 6
local appendArgs = {unpack(ARGV, groups - 5, groups)}
for i = 1, count do
  appendArgs[#appendArgs + 1] = string.format('%d', pushed[1] + i - 1)
  appendArgs[#appendArgs + 1] = ARGV[groups + i]
end
return {pushed[1], pushed[2], fair_append({unpack(KEYS, keyCount + 1)}, appendArgs)}
