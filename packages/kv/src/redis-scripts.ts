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

/** The client with the scripts registered by {@link defineScripts}. */
export type ScriptedRedis = Redis & {
  svcConsumeWindow(key: string, cost: number, limit: number, windowMs: number): Promise<[number, number, number]>;
  svcIncrementWithTtl(key: string, by: number, ttlMs: number): Promise<number>;
};

export function defineScripts(client: Redis): ScriptedRedis {
  client.defineCommand('svcConsumeWindow', { numberOfKeys: 1, lua: CONSUME_WINDOW });
  client.defineCommand('svcIncrementWithTtl', { numberOfKeys: 1, lua: INCREMENT_WITH_TTL });
  return client as ScriptedRedis;
}
