import type { ApiKeyRecord } from '@svc/auth';

/** Display helpers of the dashboard pages. */

export function usd(value: number): string {
  const abs = Math.abs(value);
  const digits = abs === 0 ? 2 : abs < 0.01 ? 6 : abs < 1 ? 4 : 2;
  return `$${value.toFixed(digits)}`;
}

export function percent(value: number | null): string {
  return value === null ? '–' : `${(value * 100).toFixed(1)} %`;
}

export function ms(value: number | null): string {
  return value === null ? '–' : `${Math.round(value)} ms`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function when(value: Date | null): string {
  return value === null ? 'never' : value.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

/** A key as the pages name it: its name and prefix, never its secret; `none` when the row has no key. */
export function keyLabel(keys: readonly ApiKeyRecord[], id: string | null, none = '–'): string {
  if (id === null) return none;
  const key = keys.find((k) => k.id === id);
  return key ? `${key.name ?? 'unnamed'} (${key.kind === 'master' ? 'master key' : `${key.keyPrefix}…`})` : id;
}
