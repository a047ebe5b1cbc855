// Every key of an organisation carries its id as a Redis hash tag (`{orgId}`), so the keys one
// admission touches share a cluster slot and one script can update them all.

export interface RateKeys {
  rpm: string;
  tpm: string;
  keyRpm: string;
  keyTpm: string;
}

/** The month counters: `usd`/`tokens` hold settled plus reserved amounts, the `*Reserved` ones the reserved part. */
export interface MonthKeys {
  usd: string;
  usdReserved: string;
  tokens: string;
  tokensReserved: string;
}

export function rateKeys(prefix: string, orgId: string, keyId: string): RateKeys {
  const org = `${prefix}{${orgId}}`;
  return { rpm: `${org}:rpm`, tpm: `${org}:tpm`, keyRpm: `${org}:key:${keyId}:rpm`, keyTpm: `${org}:key:${keyId}:tpm` };
}

export function monthKeys(prefix: string, orgId: string, month: string): MonthKeys {
  const base = `${prefix}{${orgId}}:${month}`;
  return {
    usd: `${base}:usd`,
    usdReserved: `${base}:usd-reserved`,
    tokens: `${base}:tokens`,
    tokensReserved: `${base}:tokens-reserved`,
  };
}

/** An API key's month spend counters (its budget): `usd` holds settled plus reserved, `usdReserved` the reserved part. */
export interface KeyMonthKeys {
  usd: string;
  usdReserved: string;
}

export function keyMonthKeys(prefix: string, orgId: string, keyId: string, month: string): KeyMonthKeys {
  const base = `${prefix}{${orgId}}:${month}:key:${keyId}`;
  return { usd: `${base}:usd`, usdReserved: `${base}:usd-reserved` };
}

/** The hash tag of a key (`{orgId}`), or the key itself without one. */
export function slotOf(key: string): string {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  return open >= 0 && close > open + 1 ? key.slice(open, close + 1) : key;
}
