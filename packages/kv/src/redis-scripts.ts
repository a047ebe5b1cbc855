import type { Redis } from 'ioredis';

// Read-modify-write operations run as Lua so they are atomic across gateway instances.
// `defineCommand` sends EVALSHA and falls back to EVAL once per connection on NOSCRIPT.

/** KEYS[1] window; ARGV cost, limit, windowMs -> {admitted 0|1, count, resetMs}. Mirrors memory.ts. */
const CONSUME_WINDOW = `
local cost = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 and redis.call('TYPE', KEYS[1]).ok ~= 'string' then
  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong kind of value')
end
if ttl <= 0 then
  if cost == 0 or cost > limit then
    return {cost == 0 and 1 or 0, 0, window}
  end
  redis.call('SET', KEYS[1], cost, 'PX', window)
  return {1, cost, window}
end
local count = tonumber(redis.call('GET', KEYS[1]))
if count == nil then
  return redis.error_reply('ERR value is not an integer or out of range')
end
if count + cost > limit then
  return {0, count, ttl}
end
return {1, redis.call('INCRBY', KEYS[1], cost), ttl}
`;

/** KEYS[1] counter; ARGV by, ttlMs -> new value. The TTL is set only when this call creates it. */
const INCREMENT_WITH_TTL = `
local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if created then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return value
`;

/**
 * KEYS one per step; ARGV six per step: kind ('b' | 'c'), cost, capacity | limit (or ''),
 * refillMs | ttlMs (or ''), force ('1' | '0') | onMissing, reserve | '' -> {admitted 0|1, then four integers
 * per step: fits 0|1 and remaining, resetMs, retryAfterMs (bucket) or value, missing 0|1, 0
 * (counter)}. Every step is read and decided before anything is written, so a refusal or a
 * bad value changes nothing. Mirrors memory.ts and token-bucket.ts.
 */
const CONSUME_ALL = `
local EPSILON = 1e-9
local function ceilMs(ms)
  return math.ceil(ms - 1e-6)
end
local time = redis.call('TIME')
local nowUs = tonumber(time[1]) * 1000000 + tonumber(time[2])
local plans = {}
local admitted = true
for i = 1, #KEYS do
  local base = (i - 1) * 6
  local kind = ARGV[base + 1]
  local cost = tonumber(ARGV[base + 2])
  local raw = redis.call('GET', KEYS[i])
  local plan = {kind = kind, cost = cost, costArg = ARGV[base + 2]}
  if kind == 'b' then
    local capacity = tonumber(ARGV[base + 3])
    local refillMs = tonumber(ARGV[base + 4])
    local level = capacity
    if raw then
      local stored, updatedUs = string.match(raw, '^([^|]+)|(.+)$')
      stored = tonumber(stored)
      updatedUs = tonumber(updatedUs)
      if stored == nil or updatedUs == nil then
        return redis.error_reply('ERR value is not a token bucket')
      end
      level = math.min(capacity, stored + math.max(0, nowUs - updatedUs) * capacity / (refillMs * 1000))
    end
    plan.capacity = capacity
    plan.refillMs = refillMs
    plan.before = level
    local needed = cost + tonumber(ARGV[base + 6])
    plan.fits = ARGV[base + 5] == '1' or cost <= 0 or needed <= level + EPSILON
    plan.after = level
    plan.retry = 0
    if not plan.fits then
      if needed > capacity then
        plan.retry = -1
      else
        plan.retry = ceilMs((needed - level) * refillMs / capacity)
      end
    elseif cost < 0 then
      plan.after = math.min(capacity, level - cost)
    else
      plan.after = level - cost
    end
  else
    local limit = tonumber(ARGV[base + 3])
    plan.ttl = ARGV[base + 4]
    plan.missing = not raw
    plan.value = 0
    plan.skip = false
    if raw then
      if not string.match(raw, '^-?%d+$') then
        return redis.error_reply('ERR value is not an integer or out of range')
      end
      plan.value = tonumber(raw)
    else
      plan.skip = ARGV[base + 5] == 'skip'
    end
    if plan.missing and ARGV[base + 5] == 'refuse' then
      plan.fits = false
    else
      plan.fits = plan.skip or cost <= 0 or limit == nil or plan.value + cost <= limit
    end
  end
  admitted = admitted and plan.fits
  plans[i] = plan
end
local function untilFull(plan, level)
  if level >= plan.capacity - EPSILON then
    return 0
  end
  return math.max(1, ceilMs((plan.capacity - level) * plan.refillMs / plan.capacity))
end
local out = {admitted and 1 or 0}
for i, plan in ipairs(plans) do
  if plan.kind == 'b' then
    local level = plan.before
    if admitted then
      level = plan.after
      if plan.cost ~= 0 then
        local ttl = untilFull(plan, level)
        if ttl == 0 then
          redis.call('DEL', KEYS[i])
        else
          redis.call('SET', KEYS[i], string.format('%.17g|%.17g', level, nowUs), 'PX', ttl)
        end
      end
    end
    table.insert(out, plan.fits and 1 or 0)
    table.insert(out, math.floor(level + EPSILON))
    table.insert(out, untilFull(plan, level))
    table.insert(out, plan.retry)
  else
    local value = plan.value
    if admitted and not plan.skip then
      value = value + plan.cost
      if not plan.missing then
        if plan.cost ~= 0 then
          redis.call('INCRBY', KEYS[i], plan.costArg)
        end
      elseif plan.ttl ~= '' then
        redis.call('SET', KEYS[i], plan.costArg, 'PX', plan.ttl)
      else
        redis.call('SET', KEYS[i], plan.costArg)
      end
    end
    table.insert(out, plan.fits and 1 or 0)
    table.insert(out, value)
    table.insert(out, plan.missing and 1 or 0)
    table.insert(out, 0)
  end
end
return out
`;

/** The client with the scripts registered by {@link defineScripts}. */
export type ScriptedRedis = Redis & {
  svcConsumeWindow(key: string, cost: number, limit: number, windowMs: number): Promise<[number, number, number]>;
  svcIncrementWithTtl(key: string, by: number, ttlMs: number): Promise<number>;
  svcConsumeAll(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<number[]>;
};

export function defineScripts(client: Redis): ScriptedRedis {
  client.defineCommand('svcConsumeWindow', { numberOfKeys: 1, lua: CONSUME_WINDOW });
  client.defineCommand('svcIncrementWithTtl', { numberOfKeys: 1, lua: INCREMENT_WITH_TTL });
  // Without `numberOfKeys` the key count is the first argument of each call.
  client.defineCommand('svcConsumeAll', { lua: CONSUME_ALL });
  return client as ScriptedRedis;
}
