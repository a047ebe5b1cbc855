#!/usr/bin/env node
// The Node.js floor of issue 16: the least a JSON proxy in Node can do per request. A node:http
// server reads the body, JSON.parse + JSON.stringify it (a gateway must look inside), sends it to
// the upstream through one undici Pool and relays the answer's status, content type and body.
//   node dist/floor-proxy.js --port <n> --upstream <http://host:port>
// Prints `listening on http://127.0.0.1:<port>` when ready. Not a peer gateway: our own floor.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, upstream: { type: 'string' } } });
if (!values.upstream) {
  console.error('floor-proxy: --upstream <url> is required');
  process.exit(2);
}
const pool = new Pool(values.upstream, { connections: 64, pipelining: 1 });

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(404).end(); // readiness probe
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    void (async () => {
      try {
        const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        const upstream = await pool.request({
          method: 'POST',
          path: req.url ?? '/',
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body,
        });
        const answer = await upstream.body.text();
        res.writeHead(upstream.statusCode, { 'content-type': String(upstream.headers['content-type'] ?? 'application/json') });
        res.end(answer);
      } catch (error) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error) } }));
      }
    })();
  });
});

server.listen(Number(values.port), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`floor-proxy listening on http://127.0.0.1:${port}`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    void pool.close().finally(() => process.exit(0));
  });
}
