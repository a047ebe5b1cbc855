/** USD of an amount priced per million units (tokens x USD per million tokens, characters x USD per million characters); unrounded. */
export function perMillion(amount: number): number {
  return amount / 1e6;
}

/** Rounds to 1e-10 USD so float noise never shows up in reports. */
export function roundUsd(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}
