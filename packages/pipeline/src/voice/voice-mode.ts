import type { IntelligenceMode } from '@svc/core';
import { resolveIntelligenceMode } from '../intelligence-mode.js';

/**
 * The intelligence mode of a voice request: `X-Intelligence-Mode`, else the organisation's
 * default, else `full`; `proxy` escalates to `cache` (spec §Intelligence modes, Voice). In
 * `full` mode the voice session (turn history) is kept; in `cache` mode it is not.
 *
 * @throws GatewayError 400 (param `X-Intelligence-Mode`) for an unknown header value.
 */
export function resolveVoiceMode(header: string | null | undefined, orgDefault: IntelligenceMode | null | undefined): Exclude<IntelligenceMode, 'proxy'> {
  const mode = resolveIntelligenceMode(header, undefined, orgDefault);
  return mode === 'proxy' ? 'cache' : mode;
}
