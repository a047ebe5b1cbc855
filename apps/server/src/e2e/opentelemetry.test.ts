import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';
import { CLIENT, ERROR, INTERNAL, type OtlpReceiver, type OtlpSpan, SERVER, attr, startReceiver } from './otlp-receiver.js';

describe('OpenTelemetry traces (OTLP/HTTP by the standard OTEL_* variables)', () => {
  let receiver: OtlpReceiver;
  let upstream: MockUpstream;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    upstream = await startMockUpstream();
    gateway = await startGateway({
      OPENAI_API_KEY: 'sk-upstream-openai',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'svc-otel-test',
      // Exact hits only: a semantic hit between two tests' prompts would take a request's stages away.
      SVC_SEMANTIC_CACHE: '0',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
    receiver?.server.close();
  });

  it('one trace per request under the caller’s traceparent, a GenAI client span per upstream attempt, its traceparent sent upstream', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const response = await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json', traceparent: `00-${traceId}-${callerSpan}-01` },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'trace me' }] }),
    });
    expect(response.status).toBe(200);
    await response.json();

    const upstreamParent = String(upstream.stats().lastRequest?.headers.traceparent ?? '');
    expect(upstreamParent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const upstreamSpanId = upstreamParent.split('-')[2];

    await gateway.runtime.tracing.flush();
    const resource = receiver.exports[0]!.resourceSpans[0]!.resource;
    expect(resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'svc-otel-test' } });
    const spans = receiver.exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))).filter((s) => s.traceId === traceId);
    const root = spans.find((s) => s.kind === SERVER)!;
    expect(root).toMatchObject({ name: 'POST /v1/chat/completions', parentSpanId: callerSpan });
    expect(attr(root, 'http.response.status_code')).toBe(200);
    expect(attr(root, 'gen_ai.operation.name')).toBe('chat');
    expect(attr(root, 'gen_ai.request.model')).toBe('openai/gpt-4o-mini');
    expect(attr(root, 'gen_ai.response.model')).toBe('openai/gpt-4o-mini');
    expect(attr(root, 'gen_ai.provider.name')).toBe('openai');
    expect(attr(root, 'gen_ai.usage.input_tokens')).toBeGreaterThan(0);
    expect(attr(root, 'gen_ai.usage.output_tokens')).toBeGreaterThan(0);

    const attempt = spans.find((s) => s.kind === CLIENT)!;
    expect(attempt).toMatchObject({ name: 'chat gpt-4o-mini', parentSpanId: root.spanId, spanId: upstreamSpanId });
    expect(attr(attempt, 'gen_ai.provider.name')).toBe('openai');
    expect(attr(attempt, 'gen_ai.request.model')).toBe('gpt-4o-mini');
  });

  it('a failed upstream attempt is a span with an error status, and the next attempt another one', async () => {
    upstream.configure({ fault: '500', faultProbability: 1, failFirst: 1 });
    const response = await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'fail once' }] }),
    });
    expect(response.status).toBe(200);
    await response.json();
    await gateway.runtime.tracing.flush();
    const requestId = response.headers.get('x-svc-request-id');
    const spans = receiver.exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    const root = spans.find((s) => s.kind === SERVER && attr(s, 'svc.request_id') === requestId)!;
    const attempts = spans.filter((s) => s.kind === CLIENT && s.parentSpanId === root.spanId);
    expect(attempts.map((s) => s.status?.code ?? 0)).toEqual([2, 0]);
  });

  const chat = (body: Record<string, unknown>) =>
    fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', ...body }),
    });
  /** The request's spans once exported: its root and its children, in start order. */
  const traceOf = async (response: Response) => {
    await gateway.runtime.tracing.flush();
    return receiver.request(response.headers.get('x-svc-request-id'));
  };
  const stages = (children: OtlpSpan[]) => children.filter((s) => s.kind === INTERNAL).map((s) => s.name);
  const stage = (children: OtlpSpan[], name: string) => children.find((s) => s.name === name)!;

  it('a JSON answer: a span per stage under the request span, each with what it decided', async () => {
    upstream.configure({ fault: undefined, failFirst: undefined });
    const response = await chat({ messages: [{ role: 'user', content: 'stages of a JSON answer' }] });
    expect(response.status).toBe(200);
    await response.json();
    const { children } = await traceOf(response);
    expect(stages(children)).toEqual(['svc.stage.route', 'svc.stage.cache', 'svc.stage.memory', 'svc.stage.plan', 'svc.stage.answer', 'svc.stage.finish']);
    const route = stage(children, 'svc.stage.route');
    expect(attr(route, 'gen_ai.request.model')).toBe('openai/gpt-4o-mini');
    expect(attr(route, 'svc.route.model')).toBe('openai/gpt-4o-mini');
    expect(attr(route, 'svc.route.tier')).toBe(response.headers.get('x-svc-tier-used'));
    expect(attr(route, 'svc.intelligence_mode')).toBe('full');
    expect(attr(route, 'svc.memory.scoped')).toBe(true);
    expect(attr(stage(children, 'svc.stage.cache'), 'svc.cache.result')).toBe('miss');
    expect(attr(stage(children, 'svc.stage.memory'), 'svc.memory.injected')).toBe(0);
    expect(attr(stage(children, 'svc.stage.plan'), 'svc.call.max_attempts')).toBeGreaterThan(0);
    expect(attr(stage(children, 'svc.stage.answer'), 'gen_ai.response.model')).toBe('openai/gpt-4o-mini');
    const finish = stage(children, 'svc.stage.finish');
    expect(attr(finish, 'svc.outcome')).toBe('ok');
    expect(attr(finish, 'gen_ai.usage.output_tokens')).toBeGreaterThan(0);
    expect(children.filter((s) => s.kind === CLIENT).map((s) => s.name)).toEqual(['chat gpt-4o-mini']);
  });

  it('a stream: the stream stage ends at the first event, finish when the stream ends', async () => {
    const response = await chat({ messages: [{ role: 'user', content: 'stages of a stream' }], stream: true });
    expect(response.status).toBe(200);
    await response.text();
    const { children } = await traceOf(response);
    expect(stages(children)).toEqual(['svc.stage.route', 'svc.stage.cache', 'svc.stage.memory', 'svc.stage.plan', 'svc.stage.stream', 'svc.stage.finish']);
    expect(attr(stage(children, 'svc.stage.stream'), 'gen_ai.response.model')).toBe('openai/gpt-4o-mini');
    const finish = stage(children, 'svc.stage.finish');
    expect(attr(finish, 'svc.stream')).toBe(true);
    expect(attr(finish, 'svc.outcome')).toBe('ok');
  });

  it('a cache hit: the cache stage says hit and its type, no call is made, and finish writes its ending', async () => {
    const body = { messages: [{ role: 'user', content: 'stages of a cache hit' }] };
    await (await chat(body)).json();
    const response = await chat(body);
    expect(response.headers.get('x-svc-cache-hit')).toBe('true');
    await response.json();
    const { children } = await traceOf(response);
    // finish runs inside the cache stage: both start within the same millisecond, so compare as a set.
    expect(stages(children).sort()).toEqual(['svc.stage.cache', 'svc.stage.finish', 'svc.stage.route']);
    expect(attr(stage(children, 'svc.stage.finish'), 'svc.cost_usd')).toBe(0);
    const cache = stage(children, 'svc.stage.cache');
    expect(attr(cache, 'svc.cache.result')).toBe('hit');
    expect(attr(cache, 'svc.cache.type')).toBe('exact');
    expect(children.some((s) => s.kind === CLIENT)).toBe(false);
  });

  it('embeddings: an admission and a call span, the call with the GenAI attributes of the model that answered', async () => {
    const response = await fetch(`${gateway.inferenceUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'auto', input: 'trace my vectors' }),
    });
    expect(response.status).toBe(200);
    const { model } = (await response.json()) as { model: string };
    const { children } = await traceOf(response);
    expect(stages(children)).toEqual(['svc.stage.admit', 'svc.stage.call']);
    const call = stage(children, 'svc.stage.call');
    expect(attr(call, 'gen_ai.operation.name')).toBe('embeddings');
    expect(attr(call, 'gen_ai.request.model')).toBe('auto');
    expect(attr(call, 'gen_ai.response.model')).toBe(model);
    expect(attr(call, 'gen_ai.usage.input_tokens')).toBeGreaterThan(0);
  });

  it('a failed request: the stage that failed ends in error with the error code, the request span too', async () => {
    upstream.configure({ fault: '500', faultProbability: 1, failFirst: undefined });
    try {
      const response = await chat({ messages: [{ role: 'user', content: 'stages of a failure' }] });
      expect(response.status).toBeGreaterThanOrEqual(500);
      const { error } = (await response.json()) as { error: { code: string } };
      const { root, children } = await traceOf(response);
      expect(root.status?.code).toBe(ERROR);
      expect(stages(children)).toEqual(['svc.stage.route', 'svc.stage.cache', 'svc.stage.memory', 'svc.stage.plan', 'svc.stage.answer']);
      const answer = stage(children, 'svc.stage.answer');
      expect(answer.status?.code).toBe(ERROR);
      expect(attr(answer, 'error.type')).toBe(error.code);
      for (const ok of children.filter((s) => s.kind === INTERNAL && s.name !== 'svc.stage.answer')) expect(ok.status?.code ?? 0).toBe(0);
    } finally {
      upstream.configure({ fault: undefined });
    }
  });

  it('the control plane: a request span under the caller’s traceparent, a client span per repository call', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const callerSpan = 'b7ad6b7169203331';
    const response = await fetch(`${gateway.controlUrl}/v1/admin/orgs`, { headers: { authorization: `Bearer ${masterKey}`, traceparent: `00-${traceId}-${callerSpan}-01` } });
    expect(response.status).toBe(200);
    await response.json();
    await gateway.runtime.tracing.flush();
    const spans = receiver.spans().filter((s) => s.traceId === traceId);
    const root = spans.find((s) => s.kind === SERVER)!;
    expect(root).toMatchObject({ name: 'GET /v1/admin/orgs', parentSpanId: callerSpan });
    expect(attr(root, 'http.response.status_code')).toBe(200);
    const list = spans.find((s) => s.kind === CLIENT && s.parentSpanId === root.spanId)!;
    expect(list.name).toBe('db orgs.page');
    expect(attr(list, 'db.operation.name')).toBe('page');
  });
});

describe('OpenTelemetry off when no OTLP endpoint is set', () => {
  it('creates no exporter and sends no traceparent upstream', async () => {
    const upstream = await startMockUpstream();
    const gateway = await startGateway({ OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${upstream.url}/v1` });
    try {
      expect(gateway.runtime.tracing.enabled).toBe(false);
      await (
        await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'no trace' }] }),
        })
      ).json();
      expect(upstream.stats().lastRequest?.headers.traceparent).toBeUndefined();
    } finally {
      await gateway.stop();
      await upstream.close();
    }
  }, 60_000); // a second gateway of its own: starting one takes 15-25 s on a loaded 2-core machine
});
