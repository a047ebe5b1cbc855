import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

/** What an OTLP/HTTP JSON export holds, as far as these tests read it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number; doubleValue?: number } }[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const SERVER = 2;
const CLIENT = 3;
const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.doubleValue);
};

/** An in-process OTLP/HTTP receiver: keeps every `POST /v1/traces` body. */
async function startReceiver(): Promise<{ url: string; exports: OtlpExport[]; server: Server }> {
  const exports: OtlpExport[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'POST' && req.url === '/v1/traces') exports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports, server };
}

describe('OpenTelemetry traces (OTLP/HTTP by the standard OTEL_* variables)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
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
      SVC_CACHE_TTL_SECS: '0',
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
  });
});
