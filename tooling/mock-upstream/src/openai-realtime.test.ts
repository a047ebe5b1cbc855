import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type MockUpstream, startMockUpstream } from './server.js';

let mock: MockUpstream;
beforeAll(async () => {
  mock = await startMockUpstream({ tokens: 3 });
});
afterAll(() => mock.close());

type Event = { type: string } & Record<string, unknown>;

/** Opens a realtime socket and collects its events until `until` matches (or the socket closes). */
function session(headers: Record<string, string> = {}, model = 'gpt-realtime') {
  const ws = new WebSocket(`${mock.url.replace('http', 'ws')}/v1/realtime?model=${model}`, { headers: { authorization: 'Bearer k', ...headers } });
  const events: Event[] = [];
  ws.on('message', (data) => events.push(JSON.parse(String(data)) as Event));
  const waitFor = (type: string) =>
    new Promise<Event>((resolve, reject) => {
      const check = () => {
        const found = events.find((e) => e.type === type);
        if (found) resolve(found);
        else if (ws.readyState === ws.CLOSED) reject(new Error(`closed before ${type}`));
        else setTimeout(check, 5);
      };
      check();
    });
  const send = (event: Record<string, unknown>) => ws.send(JSON.stringify(event));
  return { ws, events, waitFor, send };
}

describe('mock realtime', () => {
  it('speaks the GA protocol deterministically: session, audio turn, response with usage', async () => {
    const s = session();
    expect(((await s.waitFor('session.created')).session as { model: string }).model).toBe('gpt-realtime');
    s.send({ type: 'session.update', session: { instructions: 'Be brief.' } });
    expect(((await s.waitFor('session.updated')).session as { instructions: string }).instructions).toBe('Be brief.');
    s.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(9600).toString('base64') });
    s.send({ type: 'input_audio_buffer.commit' });
    expect((await s.waitFor('conversation.item.input_audio_transcription.completed')).transcript).toBe('heard 9600 bytes of audio');
    s.send({ type: 'response.create' });
    const done = await s.waitFor('response.done');
    expect(s.events.filter((e) => e.type === 'response.output_audio.delta')).toHaveLength(3);
    expect(s.events.filter((e) => e.type === 'response.output_audio_transcript.delta').map((e) => e.delta).join('')).toBe('Hello from the');
    expect((await s.waitFor('response.output_audio_transcript.done')).transcript).toBe('Hello from the');
    expect((done.response as { usage: unknown }).usage).toMatchObject({
      input_token_details: { text_tokens: 13, audio_tokens: 2 },
      output_token_details: { text_tokens: 3, audio_tokens: 6 },
    });
    expect(mock.stats().byPath['/v1/realtime']).toBeGreaterThan(0);
    s.ws.close();
  });

  it('uses the beta event names for OpenAI-Beta: realtime=v1 clients', async () => {
    const s = session({ 'openai-beta': 'realtime=v1' });
    await s.waitFor('session.created');
    s.send({ type: 'response.create' });
    await s.waitFor('response.done');
    expect(s.events.some((e) => e.type === 'response.audio.delta')).toBe(true);
    expect(s.events.some((e) => e.type === 'response.audio_transcript.done')).toBe(true);
    s.ws.close();
  });

  it('refuses the upgrade with a status fault and drops mid-response with drop-mid-stream', async () => {
    const refused = new WebSocket(`${mock.url.replace('http', 'ws')}/v1/realtime?model=m`, { headers: { 'x-mock-fault': '429' } });
    const status = await new Promise<number>((resolve) => refused.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(429);
    refused.on('error', () => {});
    refused.terminate();

    const s = session({ 'x-mock-fault': 'drop-mid-stream' });
    await s.waitFor('session.created');
    s.send({ type: 'response.create' });
    const code = await new Promise<number>((resolve) => s.ws.once('close', resolve));
    expect(code).toBe(1006);
    expect(s.events.filter((e) => e.type === 'response.output_audio.delta')).toHaveLength(1);
    expect(s.events.some((e) => e.type === 'response.done')).toBe(false);
  });
});
