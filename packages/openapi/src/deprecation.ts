import type { RouteDeprecation } from './route-descriptor.js';

const DAY_MS = 86_400_000;
/** Minimum notice before removal (spec document 1 §Versioning 9). */
const GA_NOTICE_DAYS = 90;
const PREVIEW_NOTICE_DAYS = 30;

/** An HTTP-date in the IMF-fixdate form (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`. */
export function httpDate(date: Date): string {
  // ECMAScript specifies toUTCString as exactly this form (for years 0..9999).
  return date.toUTCString();
}

function parseDate(where: string, field: string, value: string): Date {
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new Error(`${where}: deprecation.${field} must be an ISO-8601 date (got '${value}').`);
  }
  return date;
}

/** Throws when a deprecation breaks the versioning policy or cannot be sent as headers. */
export function checkDeprecation(where: string, deprecation: RouteDeprecation): void {
  const deprecatedAt = parseDate(where, 'deprecatedAt', deprecation.deprecatedAt);
  const sunsetAt = parseDate(where, 'sunsetAt', deprecation.sunsetAt);
  const notice = deprecation.preview ? PREVIEW_NOTICE_DAYS : GA_NOTICE_DAYS;
  if (sunsetAt.getTime() - deprecatedAt.getTime() < notice * DAY_MS) {
    throw new Error(`${where}: sunsetAt must be at least ${notice} days after deprecatedAt (spec document 1 §Versioning).`);
  }
  if (!URL.canParse(deprecation.migrationUrl)) {
    throw new Error(`${where}: deprecation.migrationUrl must be an absolute URL (got '${deprecation.migrationUrl}').`);
  }
  const successor = deprecation.successor;
  if (successor && (!successor.path.startsWith('/') || /[{}\s<>,;]/.test(successor.path))) {
    throw new Error(`${where}: deprecation.successor.path must be a concrete path (no {parameters}); name templated replacements in 'replacement'.`);
  }
  if (!successor && !deprecation.replacement) throw new Error(`${where}: a deprecation names its successor or its replacement.`);
}

/**
 * The response headers of a deprecated operation (spec document 1 §Versioning 7a): `Deprecation`
 * and `Sunset` as HTTP-dates, and one `Link` with the migration note (`rel="deprecation"`) and,
 * when direct, the replacement (`rel="successor-version"`, relative to the request URL).
 */
export function deprecationHeaders(deprecation: RouteDeprecation): Readonly<Record<string, string>> {
  const links = [`<${deprecation.migrationUrl}>; rel="deprecation"`];
  if (deprecation.successor) links.push(`<${deprecation.successor.path}>; rel="successor-version"`);
  return {
    deprecation: httpDate(new Date(deprecation.deprecatedAt)),
    sunset: httpDate(new Date(deprecation.sunsetAt)),
    link: links.join(', '),
  };
}

/** The sentence the operation's description opens with: since when, until when, what replaces it. */
export function deprecationNotice(deprecation: RouteDeprecation): string {
  const replacement = deprecation.successor
    ? `\`${deprecation.successor.method.toUpperCase()} ${deprecation.successor.path}\``
    : deprecation.replacement!;
  const since = new Date(deprecation.deprecatedAt).toISOString().slice(0, 10);
  const sunset = new Date(deprecation.sunsetAt).toISOString().slice(0, 10);
  return `**Deprecated** since ${since}: use ${replacement} instead. It keeps working unchanged until at least ${sunset} (the \`Sunset\` header); migration note: ${deprecation.migrationUrl}.`;
}
