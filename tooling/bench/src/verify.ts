import type { Target } from './target.js';

/**
 * Send one request and check the answer is a real completion (JSON with a message, or an SSE
 * stream ending in `[DONE]`) so a misrouted target cannot post fast error-page numbers; a target
 * that asks for an intelligence mode must answer in it (`x-svc-intelligence-mode`).
 * Resolves `undefined` when good, else a one-line reason.
 */
export async function verifyTarget(target: Target, stream: boolean): Promise<string | undefined> {
  try {
    const res = await fetch(target.url, {
      method: 'POST',
      headers: target.headers,
      body: target.body(stream),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    const snippet = text.slice(0, 300).replace(/\s+/g, ' ');
    if (res.status !== 200) return `${target.name} answered ${res.status}: ${snippet}`;
    const mode = target.headers['x-intelligence-mode'];
    const served = res.headers.get('x-svc-intelligence-mode');
    if (mode !== undefined && served !== mode) {
      return `${target.name} was asked for x-intelligence-mode ${mode} and answered in ${served ?? 'no stated'} mode`;
    }
    if (stream) {
      return text.includes('data: [DONE]') && text.includes('"chat.completion.chunk"')
        ? undefined
        : `${target.name} stream did not look like OpenAI chunks ending in [DONE]: ${snippet}`;
    }
    const json = JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] };
    return typeof json.choices?.[0]?.message?.content === 'string'
      ? undefined
      : `${target.name} answer has no choices[0].message.content: ${snippet}`;
  } catch (error) {
    return `${target.name} request failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
