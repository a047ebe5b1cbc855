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
