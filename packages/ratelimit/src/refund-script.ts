import { createHash } from 'node:crypto';

/**
 * Gives back units a check charged, for a limiter that charges before the work and refunds when
 * the work turns out not to count (a correct password, say). Charging first is what makes a
 * limit hold under concurrency: every request in flight has already paid, so no more than
 * `limit` of them can be running at once; a check-then-charge-afterwards lets every request in
 * flight pass the check together.
 *
 * The units come out of the sub-window the charge landed in (`ARGV[1]`, the charge's `at` on
 * Redis's clock), so a refund moves no unit in time. If that sub-window already left the window
 * (or the key expired), nothing is left to give back and nothing is written. Never below zero.
 *
 * KEYS[i]   the hash of window i (the same keys the charge used).
 * ARGV[1]   the charge's time (ms); ARGV[2] cost (units).
 * ARGV[3i..3i+1]  sub-window length (ms), sub-windows per window, for window i.
 * Returns   the units given back per window.
 */
export const REFUND_SCRIPT: string = `
local function int(x) return string.format('%d', x) end

local at = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local reply = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local sub = tonumber(ARGV[3 * i])
  local index = int(math.floor(at / sub))
  local state = redis.call('HMGET', key, 't', index)
  local total = tonumber(state[1]) or 0
  local units = tonumber(state[2]) or 0
  local back = math.min(cost, units, total)
  if back > 0 then
    if units - back == 0 then redis.call('HDEL', key, index) else redis.call('HSET', key, index, int(units - back)) end
    redis.call('HSET', key, 't', int(total - back))
  end
  reply[i] = back
end
return reply
`;

/** SHA1 of the refund script, for EVALSHA. */
export const REFUND_SHA = createHash('sha1').update(REFUND_SCRIPT).digest('hex');
