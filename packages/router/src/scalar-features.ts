import type { RequestFeatures } from './features.js';

const wireNames = new Map<string, string>();

/** `lastUserChars` -> `last_user_chars`, computed once per name. */
function wireName(name: string): string {
  let wire = wireNames.get(name);
  if (wire === undefined) {
    wire = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    wireNames.set(name, wire);
  }
  return wire;
}

/**
 * The scalar features of a request in wire (snake_case) names, numbers rounded to 3 decimals:
 * what `/v1/classify_complexity` answers and the decision log keeps. The hashed term vectors and
 * `max_tokens` (an echo of the request) are left out.
 */
export function scalarFeatures(features: RequestFeatures): Record<string, number | boolean> {
  const wire: Record<string, number | boolean> = {};
  for (const name in features) {
    if (name === 'maxTokens') continue;
    const value = features[name as keyof RequestFeatures];
    if (typeof value === 'number') wire[wireName(name)] = Math.round(value * 1000) / 1000;
    else if (typeof value === 'boolean') wire[wireName(name)] = value;
  }
  return wire;
}
