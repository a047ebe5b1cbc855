import type { ModelInfo } from '@svc/catalog';

const dayMs = 86_400_000;

/**
 * The headers of an answer from a model with a retirement date still ahead: `Deprecation` (RFC
 * 9745, `@<unix seconds>`: when it was deprecated, `deprecatedAt`, else the start of today, UTC,
 * meaning "deprecated now"), `Sunset` (RFC 8594, the HTTP-date it retires) and, when the catalog
 * names a replacement, a `Link` to it with `rel="successor-version"`. Empty for any other model.
 */
export function deprecationHeaders(model: ModelInfo, now: number = Date.now()): Record<string, string> {
  if (model.retiresAt === undefined) return {};
  const sunset = Date.parse(model.retiresAt);
  if (!(sunset > now)) return {};
  const deprecated = model.deprecatedAt === undefined ? Math.floor(now / dayMs) * dayMs : Date.parse(model.deprecatedAt);
  const headers: Record<string, string> = { deprecation: `@${Math.floor(deprecated / 1000)}`, sunset: new Date(sunset).toUTCString() };
  if (model.replacement) headers.link = `</v1/models/${encodeURIComponent(model.replacement)}>; rel="successor-version"`;
  return headers;
}
