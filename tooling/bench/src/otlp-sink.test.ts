import { describe, expect, it } from 'vitest';
import { countSpans, startOtlpSink } from './otlp-sink.js';

describe('the OTLP sink of the svc-otel target', () => {
  it('counts the spans of an export without keeping it', async () => {
    const sink = await startOtlpSink();
    try {
      const body = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 'a', spanId: 'b', parentSpanId: 'c' }, { traceId: 'a', spanId: 'd' }] }] }] });
      const response = await fetch(`${sink.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status).toBe(200);
      expect(sink.received()).toEqual({ exports: 1, spans: 2, bytes: Buffer.byteLength(body) });
    } finally {
      await sink.close();
    }
  });

  it('counts no span in a body without one', () => {
    expect(countSpans(Buffer.from('{"resourceSpans":[]}'))).toBe(0);
  });
});
