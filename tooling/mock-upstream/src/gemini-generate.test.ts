import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from './server.js';
import { frames, type GeminiResponse, post, readJson } from './test-client.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ tokens: 3 });
});
afterAll(() => mock.close());

const body = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

describe('Gemini generateContent', () => {
  it('answers generateContent with candidates, usage and the model from the path', async () => {
    const res = await post(`${mock.url}/v1beta/models/gemini-2.0-flash:generateContent`, body);
    const json = await res.json();
    expect(json).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello from the' }] }, finishReason: 'STOP' }],
      usageMetadata: { candidatesTokenCount: 3 },
      modelVersion: 'gemini-2.0-flash',
    });
  });

  it('streams SSE chunks with CRLF framing; the last has finishReason and full usage', async () => {
    const res = await post(
      `${mock.url}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`,
      body,
    );
    const raw = await res.text();
    expect(raw).toContain('\r\n\r\n');
    const chunks = frames(raw).map((f) => JSON.parse(f.data));
    expect(chunks).toHaveLength(3);
    expect(chunks.map((c) => c.candidates[0].content.parts[0].text).join('')).toBe('Hello from the');
    expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
    expect(chunks.at(-1).usageMetadata.candidatesTokenCount).toBe(3);
    expect(chunks[0].candidates[0].finishReason).toBeUndefined();
  });

  it('answers streamGenerateContent without alt=sse as one JSON array', async () => {
    const res = await post(`${mock.url}/v1beta/models/g:streamGenerateContent`, body);
    const json = await readJson<GeminiResponse[]>(res);
    expect(Array.isArray(json)).toBe(true);
    expect(json).toHaveLength(3);
  });

  it('answers function calling mode ANY with a functionCall part', async () => {
    const res = await post(`${mock.url}/v1beta/models/g:generateContent`, {
      ...body,
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', properties: { x: { type: 'boolean' } } } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });
    const json = await readJson<GeminiResponse>(res);
    expect(json.candidates[0]?.content.parts[0]).toEqual({ functionCall: { name: 'f', args: { x: true } } });
  });

  it('caps at maxOutputTokens with MAX_TOKENS', async () => {
    const res = await post(`${mock.url}/v1beta/models/g:generateContent`, {
      ...body,
      generationConfig: { maxOutputTokens: 1 },
    });
    expect((await readJson<GeminiResponse>(res)).candidates[0]?.finishReason).toBe('MAX_TOKENS');
  });
});
