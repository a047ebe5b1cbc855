import { once } from 'node:events';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export holds it, as far as the tests read it. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  status?: { code?: number };
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean } }[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** OTLP span kinds. */
export const INTERNAL = 1;
export const SERVER = 2;
export const CLIENT = 3;
/** OTLP status code of a failed span. */
export const ERROR = 2;

/** One attribute's value: string, number or boolean. */
export function attr(span: OtlpSpan, key: string): string | number | boolean | undefined {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  return value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue));
}

/** An in-process OTLP/HTTP receiver: keeps every `POST /v1/traces` body. */
export interface OtlpReceiver {
  url: string;
  exports: OtlpExport[];
  server: Server;
  /** Every span received so far. */
  spans(): OtlpSpan[];
  /** The root (SERVER) span whose `svc.request_id` is `requestId`, and its children in start order. */
  request(requestId: string | null): { root: OtlpSpan; children: OtlpSpan[] };
}

export async function startReceiver(): Promise<OtlpReceiver> {
  const exports: OtlpExport[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'POST' && req.url === '/v1/traces') exports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const spans = () => exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    server,
    spans,
    request(requestId) {
      const all = spans();
      const root = all.find((s) => s.kind === SERVER && attr(s, 'svc.request_id') === requestId);
      if (!root) throw new Error(`no request span for ${requestId}`);
      const children = all.filter((s) => s.parentSpanId === root.spanId).sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1));
      return { root, children };
    },
  };
}
