import { createHash } from 'node:crypto';

/**
 * The one script behind every check: it reads every window of a subject, decides, and charges
 * all of them or none, in one round trip and atomically (Redis runs a script to completion
 * before any other command). It computes what `sliding-window.ts` computes; see there for the
 * arithmetic and the error bound.
 *
 * Time is `redis.call('TIME')`, never the caller's clock, so replicas with skewed clocks agree
 * on sub-window boundaries. Since Redis 5 scripts replicate their effects rather than their
 * text (Redis 7 has no other mode), so reading TIME before writing is allowed and safe.
 *
 * Each window is one hash: a field per sub-window index with the units charged in it, plus
 * `t`, the total of those fields, `n`, the newest index, and `o`, the index below which every
 * field is already gone. A charge lands in the current sub-window, which becomes `n`, after
 * everything older than `n - subWindows` was dropped; so the fields always lie within
 * `max(o, n - subWindows) .. n`. Every check drops (and subtracts from `t`) the indexes of that
 * range that left the window, which are the ones that left since the last check: usually none,
 * one per sub-window on average. An admitted check thus costs two commands per window whatever
 * `subWindows` is (four when it opens a new sub-window: only then do `n` and the expiry move).
 * A refusal also reads the oldest live sub-windows, to say when the request would fit.
 *
 * KEYS[i]   the hash of window i.
 * ARGV[1]   cost (units); ARGV[2] '1' to charge when every window has room, '0' to only look.
 * ARGV[3i..3i+2]  limit, sub-window length (ms), sub-windows per window, for window i.
 * Returns   { allowed (1/0), now (ms), then per window: fits (1/0), used, resetAt (ms),
 *             retryAt (ms, -1 = never) }.
 *
 * A refused check writes nothing but the removal of sub-windows that already left the window,
 * which changes no count. A charged key expires when its newest sub-window leaves the window,
 * so an idle subject costs no memory. Numbers go back to Redis through string.format('%d'),
 * because Lua's default formatting may write a large integer with an exponent.
 */
export const SLIDING_WINDOW_SCRIPT: string = `
local function int(x) return string.format('%d', x) end

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local cost = tonumber(ARGV[1])
local charge = ARGV[2] == '1'
local windows = {}
local allowed = 1

for i = 1, #KEYS do
  local key = KEYS[i]
  local w = { limit = tonumber(ARGV[3 * i]), sub = tonumber(ARGV[3 * i + 1]), subs = tonumber(ARGV[3 * i + 2]) }
  w.cur = math.floor(now / w.sub)
  w.oldest = w.cur - w.subs
  local state = redis.call('HMGET', key, 't', 'n', 'o', int(w.cur))
  w.used = tonumber(state[1]) or 0
  w.newest = tonumber(state[2])
  w.current = tonumber(state[4]) or 0
  if w.newest ~= nil and w.newest < w.oldest then
    -- Everything left the window: this is the very millisecond the key expires (Redis drops it
    -- only once the clock is past its expiry), or a key that lost its TTL.
    redis.call('DEL', key)
    w.used, w.newest, w.current = 0, nil, 0
  elseif w.newest ~= nil then
    local low = math.max(tonumber(state[3]) or -math.huge, w.newest - w.subs)
    if low < w.oldest then
      local stale = {}
      for index = low, w.oldest - 1 do stale[#stale + 1] = int(index) end
      local counts = redis.call('HMGET', key, unpack(stale))
      for j = 1, #stale do w.used = w.used - (tonumber(counts[j]) or 0) end
      redis.call('HDEL', key, unpack(stale))
      redis.call('HSET', key, 't', int(w.used), 'o', int(w.oldest))
    end
  end
  w.fits = w.used + cost <= w.limit
  if not w.fits then allowed = 0 end
  windows[i] = w
end

-- When the oldest counted units have freed enough room for cost, read oldest first, a few
-- sub-windows at a time: the room a refused request lacks usually frees in the first few.
local function retryAt(key, w)
  if cost > w.limit then return -1 end
  if w.newest == nil then return now end
  local needed = w.used + cost - w.limit
  local freed = 0
  local from = math.max(w.oldest, w.newest - w.subs)
  while from <= w.newest do
    local to = math.min(from + 15, w.newest)
    local fields = {}
    for index = from, to do fields[#fields + 1] = int(index) end
    local counts = redis.call('HMGET', key, unpack(fields))
    for j = 1, #fields do
      freed = freed + (tonumber(counts[j]) or 0)
      if freed >= needed then return (from + j - 1 + w.subs + 1) * w.sub end
    end
    from = to + 1
  end
  return -1
end

local reply = { allowed, now }
for i = 1, #KEYS do
  local key = KEYS[i]
  local w = windows[i]
  local retry = now
  if allowed == 1 and charge then
    w.used = w.used + cost
    if w.newest == nil or w.cur > w.newest then
      w.newest = w.cur
      redis.call('HSET', key, int(w.cur), int(w.current + cost), 't', int(w.used), 'n', int(w.newest))
      redis.call('PEXPIRE', key, int((w.newest + w.subs + 1) * w.sub - now))
    else
      redis.call('HSET', key, int(w.cur), int(w.current + cost), 't', int(w.used))
    end
  elseif not w.fits then
    retry = retryAt(key, w)
  end
  local resetAt = now
  if w.newest ~= nil and w.used > 0 then resetAt = (w.newest + w.subs + 1) * w.sub end
  reply[#reply + 1] = w.fits and 1 or 0
  reply[#reply + 1] = w.used
  reply[#reply + 1] = resetAt
  reply[#reply + 1] = retry
end
return reply
`;

/** SHA1 of the script, as EVALSHA wants it; computed here so no SCRIPT LOAD round trip is needed. */
export const SLIDING_WINDOW_SHA = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');
