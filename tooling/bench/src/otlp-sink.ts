import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/HTTP receiver that keeps nothing: what the `svc-otel` target exports its traces to. */
export interface OtlpSink {
  /** `http://127.0.0.1:<port>`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  url: string;
  /** Exports received so far, their spans (counted, not parsed) and bytes. */
  received(): { exports: number; spans: number; bytes: number };
  close(): Promise<void>;
}

const SPAN_ID_KEY = Buffer.from('"spanId"');

/** How many spans an OTLP/HTTP JSON body holds: occurrences of the `"spanId"` key (no parse). */
export function countSpans(body: Buffer): number {
  let count = 0;
  for (let at = body.indexOf(SPAN_ID_KEY); at >= 0; at = body.indexOf(SPAN_ID_KEY, at + SPAN_ID_KEY.length)) count++;
  return count;
}

/**
 * Start the sink in the bench's own process (CPU 0 with the mock and the load generator when
 * pinned): it answers every `POST /v1/traces` with 200 and discards the body, so the gateway pays
 * for building, batching and sending its spans, and nothing for a collector.
 */
export async function startOtlpSink(): Promise<OtlpSink> {
  const totals = { exports: 0, spans: 0, bytes: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      totals.exports++;
      totals.bytes += body.length;
      totals.spans += countSpans(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  server.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ ...totals }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
