import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { OpenAIRealtimeWS as BetaRealtimeWS } from 'openai/beta/realtime/ws';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';
import { type RealtimeEvent, openSocket, sessionRows, startTlsTerminator, testCa, waitForEvent } from './realtime-kit.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
const FEE = 0.01;

/** What the mock bills for one response of `words` words after `audioBytes` of committed audio and these instructions (see its docs). */
function mockResponseCost(gateway: Gateway, model: string, words: number, audioBytes: number, instructions: string) {
  const m = gateway.runtime.catalog.get(model)!;
  const prices = m.unitPrices!;
  const textIn = 10 + Math.ceil(instructions.length / 4);
  const audioIn = Math.ceil(audioBytes / 4800);
  return {
    promptTokens: textIn + audioIn,
    completionTokens: words * 3,
    usd: (textIn * m.inputPricePerMTok + audioIn * prices.audioInputPerMTok! + words * m.outputPricePerMTok + words * 2 * prices.audioOutputPerMTok!) / 1e6,
  };
}

/** The realtime endpoint with the official openai SDK's WebSocket clients, through a TLS terminator, against the mock upstream. */
describe('realtime voice: openai SDK through the gateway (mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let tls: Awaited<ReturnType<typeof startTlsTerminator>>;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 4 });
    gateway = await startGateway({ OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${upstream.url}/v1`, SVC_VOICE_PLATFORM_FEE_PER_MINUTE: String(FEE) });
    tls = await startTlsTerminator(gateway.servers.find((s) => s.name === 'inference')!.port);
    // Only the base URL changes: the SDK appends /realtime?model= and connects with wss://.
    client = new OpenAI({ baseURL: `${tls.url}/v1`, apiKey: masterKey });
  });
  afterAll(async () => {
    await gateway?.stop();
    await tls?.close();
    await upstream?.close();
  });

  /** The SDK client's parsed events (and its errors, as `sdk.error`). */
  function eventsOf(rt: OpenAIRealtimeWS): RealtimeEvent[] {
    const events: RealtimeEvent[] = [];
    rt.on('event', (event) => events.push(event as unknown as RealtimeEvent));
    rt.on('error', (error) => events.push({ type: 'sdk.error', error }));
    return events;
  }

  /** Runs one spoken turn on an SDK client: session.update, audio, commit, response; resolves with `response.done` seen. */
  async function speakOnce(rt: Pick<OpenAIRealtimeWS, 'socket' | 'send'>, events: RealtimeEvent[], instructions: string): Promise<RealtimeEvent[]> {
    const closed = () => rt.socket.readyState === rt.socket.CLOSED;
    await waitForEvent(events, 'session.created', closed);
    rt.send({ type: 'session.update', session: { type: 'realtime', instructions } } as never);
    await waitForEvent(events, 'session.updated', closed);
    rt.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(9600).toString('base64') });
    rt.send({ type: 'input_audio_buffer.commit' });
    rt.send({ type: 'response.create' });
    await waitForEvent(events, 'response.done', closed);
    return events;
  }

  it('relays a spoken turn both ways and bills started minutes x fee + the reported tokens, the first minute written as it starts', async () => {
    const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime', options: { ca: testCa } }, client);
    const upgrade = new Promise<Record<string, unknown>>((resolve) => rt.socket.once('upgrade', (res) => resolve(res.headers)));
    const instructions = 'Answer in four words.';
    const events = await speakOnce(rt, eventsOf(rt), instructions);
    const headers = await upgrade;

    expect(events.filter((e) => e.type === 'response.output_audio.delta')).toHaveLength(4);
    expect(events.filter((e) => e.type === 'response.output_audio_transcript.delta').map((e) => e.delta).join('')).toBe('Hello from the mock');
    expect(events.find((e) => e.type === 'conversation.item.input_audio_transcription.completed')?.transcript).toBe('heard 9600 bytes of audio');
    expect(events.some((e) => e.type === 'sdk.error')).toBe(false);
    // The session went upstream with the platform key, GA protocol (no beta header).
    const seen = upstream.stats().lastRequest!;
    expect(seen.path).toBe('/v1/realtime');
    expect(seen.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(seen.headers['openai-beta']).toBeUndefined();
    // Default mode is full; the 101 says so and names the session.
    expect(headers['x-svc-intelligence-mode']).toBe('full');
    expect(headers['x-svc-model']).toBe('openai/gpt-realtime');

    const closed = new Promise<number>((resolve) => rt.socket.once('close', resolve));
    rt.close();
    expect(await closed).toBe(1000);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the gateway's close handler runs after the frame
    const rows = await sessionRows(gateway.runtime, headers);
    const id = String(headers['x-svc-request-id']);
    // The first minute was written as the session opened; the session's own row holds the tokens.
    expect(rows.map((row) => row.requestId)).toEqual([id, `${id}:minute-1`]);
    const expected = mockResponseCost(gateway, 'openai/gpt-realtime', 4, 9600, instructions);
    expect(rows[0]).toMatchObject({ model: 'openai/gpt-realtime', provider: 'openai', status: 101, stream: true, promptTokens: expected.promptTokens, completionTokens: expected.completionTokens });
    expect(rows[1]).toMatchObject({ model: 'openai/gpt-realtime', status: 101, promptTokens: 0, completionTokens: 0, costUsd: FEE });
    // A session under a minute is one started minute.
    expect(rows[0]!.latencyMs).toBeLessThan(60_000);
    expect(rows[0]!.costUsd + rows[1]!.costUsd).toBeCloseTo(FEE + expected.usd, 9);

    const metrics = await (await fetch(`${gateway.inferenceUrl}/metrics`)).text();
    expect(metrics).toMatch(/svc_realtime_session_minutes_total\{provider="openai",model="openai\/gpt-realtime"\} 1/);
    expect(metrics).toMatch(/svc_realtime_sessions_open\{provider="openai",model="openai\/gpt-realtime"\} 0/);
  });

  it('the beta client speaks the beta protocol through it, and full mode stores the turns under the conversation id', async () => {
    const rt = new BetaRealtimeWS(
      { model: 'gpt-realtime-mini', options: { ca: testCa, headers: { 'x-intelligence-mode': 'full', 'x-svc-conversation-id': 'conv-e2e-beta' } } },
      client,
    );
    const upgrade = new Promise<Record<string, unknown>>((resolve) => rt.socket.once('upgrade', (res) => resolve(res.headers)));
    const seen: RealtimeEvent[] = [];
    rt.on('event', (event) => seen.push(event as unknown as RealtimeEvent));
    rt.on('error', (error) => seen.push({ type: 'sdk.error', error }));
    const events = await speakOnce(rt as unknown as Pick<OpenAIRealtimeWS, 'socket' | 'send'>, seen, 'Be brief.');
    expect(events.some((e) => e.type === 'sdk.error')).toBe(false);
    const headers = await upgrade;
    expect(upstream.stats().lastRequest?.headers['openai-beta']).toBe('realtime=v1');
    expect(events.filter((e) => e.type === 'response.audio.delta')).toHaveLength(4);
    expect(headers['x-svc-conversation-id']).toBe('conv-e2e-beta');
    rt.close();
    await new Promise((resolve) => rt.socket.once('close', resolve));
    const turns = await gateway.runtime.voice.sessions!.history(String(headers['x-svc-org-id']), 'conv-e2e-beta');
    expect(turns.map((t) => [t.role, t.content])).toEqual([
      ['user', 'heard 9600 bytes of audio'],
      ['assistant', 'Hello from the mock'],
    ]);
  });

  it('escalates proxy to cache for voice and keeps no turns then; the browser subprotocol carries the key', async () => {
    const url = `${gateway.inferenceUrl.replace('http', 'ws')}/v1/voice/realtime?model=gpt-realtime&conversation_id=conv-e2e-proxy`;
    const s = openSocket(url, { headers: { 'x-intelligence-mode': 'proxy' }, protocols: ['realtime', `openai-insecure-api-key.${masterKey}`, 'openai-beta.realtime-v1'] });
    await s.opened;
    expect(s.ws.protocol).toBe('realtime');
    expect(s.headers()['x-svc-intelligence-mode']).toBe('cache');
    expect(upstream.stats().lastRequest?.headers['openai-beta']).toBe('realtime=v1');
    s.send({ type: 'response.create' });
    await s.waitFor('response.done');
    s.ws.close();
    await s.closed;
    expect(await gateway.runtime.voice.sessions!.history(String(s.headers()['x-svc-org-id']), 'conv-e2e-proxy')).toEqual([]);
  });

  it("opens the organisation's own OpenAI key first (BYOK)", async () => {
    const org = await gateway.runtime.db.orgs.create({ name: `rt-byok-${Date.now()}` });
    await gateway.runtime.byok.put(org.id, 'openai', 'sk-org-own-openai-key');
    const key = (await gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:audio'] })).secret;
    const s = openSocket(`${gateway.inferenceUrl.replace('http', 'ws')}/v1/voice/realtime?model=gpt-realtime`, { headers: { authorization: `Bearer ${key}` } });
    await s.opened;
    await s.waitFor('session.created');
    expect(upstream.stats().lastRequest?.headers.authorization).toBe('Bearer sk-org-own-openai-key');
    s.ws.close();
    await s.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sessionRows(gateway.runtime, s.headers())).toMatchObject([{ orgId: org.id, costUsd: 0 }, { orgId: org.id, costUsd: FEE }]);
  });

  it('bills a client that vanishes mid-session (connection cut, no close frame)', async () => {
    const s = openSocket(`${gateway.inferenceUrl.replace('http', 'ws')}/v1/voice/realtime?model=gpt-realtime-mini`, { headers: { authorization: `Bearer ${masterKey}` } });
    await s.opened;
    await s.waitFor('session.created');
    s.ws.terminate();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const rows = await sessionRows(gateway.runtime, s.headers());
    expect(rows).toMatchObject([{ status: 101, costUsd: 0 }, { status: 101, costUsd: FEE }]);
  });
});
