-- A completion on a fair queue in one step (RedisFairGroups.complete): complete.lua completes the
-- messages, then fair-remove.lua takes each one it completed out of its group, so that no instance
-- killed between the two leaves a completed message counted released in its group (which
-- fair-release.lua's sample would only heal later). Both run unchanged, as the local functions
-- complete and fair_remove (LuaScript.composed puts them before this script), each on its own
-- KEYS and ARGV.
-- KEYS: complete.lua's (ARGV[1] of them), then fair-remove.lua's
-- ARGV: how many keys are complete.lua's, how many messages, complete.lua's arguments ('complete',
--   now, 0, then each message's id and delivery), then the prefix of the groups' held lists
-- Returns complete.lua's answer.
local keyCount, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local outcomes = complete({unpack(KEYS, 1, keyCount)}, {unpack(ARGV, 3, 5 + 2 * count)})
local removeKeys, prefix = {unpack(KEYS, keyCount + 1)}, ARGV[6 + 2 * count]
for i = 1, count do
  -- 0: COMPLETED (complete.lua's code)
  if outcomes[i] == 0 then
    fair_remove(removeKeys, {ARGV[4 + 2 * i], prefix})
  end
end
return outcomes
