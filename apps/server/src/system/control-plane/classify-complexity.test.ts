import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';
import { maxClassifyChars } from '@svc/control-plane';

const maxBodyBytes = 512 * 1024;
let runtime: Runtime;
let app: ReturnType<typeof createControlPlaneApp>;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: 'sk-svc-classify-test-master-prC9k4hciZxmX5D9H6HJBDlh', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  app = createControlPlaneApp({ ...runtime, maxBodyBytes });
});
afterAll(async () => {
  await runtime?.close();
});

/** No authorization header: the endpoint is public. */
const classify = (body: unknown) =>
  app.request('/v1/classify_complexity', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;

interface Verdict {
  complexity: string;
  task_family: string;
  score: number;
  features: Record<string, number | boolean>;
}

const codePrompt = [
  'Fix the bug in this TypeScript function; it throws on an empty array:',
  '```ts',
  'export function max(values: number[]): number {',
  '  let best = values[0];',
  '  for (const v of values) if (v > best) best = v;',
  '  return best;',
  '}',
  '```',
].join('\n');

describe('POST /v1/classify_complexity', () => {
  it('answers without any key, in wire names', async () => {
    const response = await classify({ prompt: 'hi' });
    expect(response.status).toBe(200);
    const verdict = await json<Verdict>(response);
    expect(verdict).toMatchObject({ complexity: 'trivial', task_family: 'chat' });
    expect(verdict.score).toBeGreaterThanOrEqual(0);
    expect(verdict.features).toMatchObject({ last_user_chars: 2, turns: 1, has_system: false, tools: false });
    expect(Object.keys(verdict.features).every((key) => /^[a-z_]+$/.test(key))).toBe(true);
  });

  it('recognises code and rates it above a greeting', async () => {
    const code = await json<Verdict>(await classify({ prompt: codePrompt }));
    expect(code.task_family).toBe('code');
    expect(code.complexity).not.toBe('trivial');
    expect(code.features.code).toBeGreaterThan(0);
    const greeting = await json<Verdict>(await classify({ prompt: 'Hello there!' }));
    expect(code.score).toBeGreaterThan(greeting.score);
  });

  it('reads messages (string or text parts), ignoring other parts and extra fields', async () => {
    const verdict = await json<Verdict>(
      await classify({
        model: 'ignored',
        messages: [
          { role: 'system', content: 'You are a careful reviewer.' },
          { role: 'user', content: [{ type: 'text', text: codePrompt }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
        ],
      }),
    );
    expect(verdict).toMatchObject({ task_family: 'code', features: { has_system: true, turns: 1, last_user_chars: codePrompt.length } });
    const same = await json<Verdict>(await classify({ messages: [{ role: 'user', content: codePrompt }] }));
    expect(same.task_family).toBe('code');
  });

  it('answers 400 naming the field for a missing, empty, too long or malformed input', async () => {
    const cases: [unknown, string | null][] = [
      [{}, 'prompt'],
      [{ prompt: '' }, 'prompt'],
      [{ prompt: '   ' }, 'prompt'],
      [{ prompt: 42 }, 'prompt'],
      [{ prompt: 'x'.repeat(maxClassifyChars + 1) }, 'prompt'],
      [{ prompt: 'hi', messages: [{ role: 'user', content: 'hi' }] }, 'messages'],
      [{ messages: [] }, 'messages'],
      [{ messages: 'hi' }, 'messages'],
      [{ messages: [{ role: 'robot', content: 'hi' }] }, 'messages.0.role'],
      [{ messages: [{ role: 'user', content: 7 }] }, 'messages.0.content'],
      [{ messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages.0.content.0.text'],
      [{ messages: [{ role: 'user', content: 'x'.repeat(maxClassifyChars) }, { role: 'user', content: 'more' }] }, 'messages'],
      ['not json', null],
    ];
    for (const [body, param] of cases) {
      const response = await classify(body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(await json(response), JSON.stringify(body).slice(0, 80)).toMatchObject({ error: { type: 'invalid_request_error', param } });
    }
  });

  it('still applies the body-size limit (413)', async () => {
    const response = await classify({ prompt: 'x'.repeat(maxBodyBytes) });
    expect(response.status).toBe(413);
  });
});
