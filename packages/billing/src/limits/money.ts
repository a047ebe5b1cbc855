// Month counters hold integers (Kv counters are integers), so money is counted in micro-USD:
// exact sums, and a safe integer still holds nine billion dollars.

const MICROS_PER_USD = 1_000_000;

/**
 * A reservation: rounded up, so many small reservations never add up to less than their cost
 * (but not for float noise: $0.07 is 70 000, not 70 001).
 */
export function reserveMicros(usd: number): number {
  return Math.ceil(usd * MICROS_PER_USD - 1e-6);
}

/** A settled cost: rounded to the nearest micro-USD. */
export function spendMicros(usd: number): number {
  return Math.round(usd * MICROS_PER_USD);
}

export function toUsd(micros: number): number {
  return micros / MICROS_PER_USD;
}
