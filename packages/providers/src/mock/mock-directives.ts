/**
 * Test directives the mock provider reads from the LAST USER MESSAGE. They let pipeline and app
 * tests script upstream behaviour through an ordinary request:
 *
 * - `[mock:error=<status>]`             fail with the ProviderError an upstream <status> maps to
 *                                        (429 carries retryAfterMs 1000); stream() rejects before
 *                                        the first byte.
 * - `[mock:stream-error-after=<n>]`     stream n token steps, then throw a `server` ProviderError
 *                                        (chat() fails at once with the same error).
 * - `[mock:reply=<text>]`               answer exactly <text> (up to the closing bracket), in JSON mode too.
 * - `[mock:tokens=<n>]`                 generate exactly n tokens of text.
 * - `[mock:latency=<ms>]`               first-token latency for this request.
 * - `[mock:tool=<name>]`                call the tool <name> (it must be among the request's tools).
 */
export interface MockDirectives {
  errorStatus?: number;
  streamErrorAfter?: number;
  reply?: string;
  tokens?: number;
  latencyMs?: number;
  tool?: string;
}

const directivePattern = /\[mock:([a-z-]+)=([^\]]*)\]/g;

export function readDirectives(text: string): MockDirectives {
  const directives: MockDirectives = {};
  if (!text.includes('[mock:')) return directives;
  for (const [, name, value] of text.matchAll(directivePattern)) {
    switch (name) {
      case 'error':
        directives.errorStatus = toInt(value);
        break;
      case 'stream-error-after':
        directives.streamErrorAfter = toInt(value);
        break;
      case 'reply':
        directives.reply = value;
        break;
      case 'tokens':
        directives.tokens = toInt(value);
        break;
      case 'latency':
        directives.latencyMs = toInt(value);
        break;
      case 'tool':
        directives.tool = value;
        break;
    }
  }
  return directives;
}

function toInt(value: string | undefined): number | undefined {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}
