import type { CacheControl } from '@svc/core';
import * as v from 'valibot';
import { literal, obj, oneOf, opt } from './fields.js';

/**
 * `cache_control: {type: "ephemeral", ttl?: "5m" | "1h"}`, Anthropic's prompt-cache breakpoint,
 * accepted on Messages blocks and tools and (as OpenRouter and LiteLLM take it) on chat content
 * parts and tools.
 */
export const cacheControlSchema = obj({ type: literal('ephemeral'), ttl: opt(oneOf(['5m', '1h'])) });

export type WireCacheControl = v.InferOutput<typeof cacheControlSchema>;

/** Copies a wire `cache_control` onto a canonical part, tool or message (nothing when absent). */
export function withCacheControl<T extends { cacheControl?: CacheControl }>(target: T, wire: WireCacheControl | null | undefined): T {
  if (wire == null) return target;
  target.cacheControl = wire.ttl == null ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: wire.ttl };
  return target;
}
