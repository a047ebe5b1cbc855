import { type IntelligenceMode, intelligenceModes, invalidRequest } from '@svc/core';

function isMode(value: string): value is IntelligenceMode {
  return (intelligenceModes as readonly string[]).includes(value);
}

/**
 * Resolves the intelligence mode: header `X-Intelligence-Mode` > body `svc.intelligence_mode`
 * > the organisation's default > `full`. An unknown header value is a 400, like a bad body value.
 */
export function resolveIntelligenceMode(
  header: string | null | undefined,
  body: IntelligenceMode | undefined,
  orgDefault: IntelligenceMode | null | undefined,
): IntelligenceMode {
  if (header) {
    const value = header.trim().toLowerCase();
    if (!isMode(value)) {
      throw invalidRequest(`X-Intelligence-Mode must be one of ${intelligenceModes.join(', ')}.`, 'X-Intelligence-Mode');
    }
    return value;
  }
  return body ?? orgDefault ?? 'full';
}
