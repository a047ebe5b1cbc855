/**
 * Client-side CPU per upstream request: the previous transport (built-in fetch, body read as
 * text, SSE through `TextDecoderStream` + `EventSourceParserStream`) against the current one
 * (`postJson`/`readResponseJson`/`readSse` over the undici client, and over `fetchHttpClient`).
 * The upstream is a node:http server in a child process, so only the client's CPU is counted.
 *
 *   cd packages/providers && npx tsx --conditions=@svc/source src/shared/measure-http-transport.ts [N]
 *
 * Not a test: the figures depend on the machine. They are quoted in `undici-http-client.ts`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { fetchHttpClient } from './fetch-http-client.js';
import type { HttpClient } from './http-client.js';
import { postJson, readResponseJson } from './http.js';
import { readSse } from './sse.js';
import { createUndiciHttpClient } from './undici-http-client.js';

const requests = Number(process.argv[2] ?? 5000);
const warmup = 1000;
const rounds = 3;

// The upstream: a ~0.8 KB chat completion for /json, 16 OpenAI-style chunks (one write each) for /sse.
const upstreamSource = `
const http = require('node:http');
const chunk = (delta) => 'data: ' + JSON.stringify({ id: 'chatcmpl-BxQ8Tk5nL2pW9eR4yU7iO1aS6dF3G', object: 'chat.completion.chunk', created: 1753781500, model: 'gpt-4o-mini-2024-07-18', system_fingerprint: 'fp_34a54ae93c', choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] }) + '\\n\\n';
const events = [];
for (let i = 0; i < 15; i++) events.push(chunk({ content: ' token' + i }));
events.push('data: [DONE]\\n\\n');
const completion = JSON.stringify({ id: 'chatcmpl-BxQ8Tk5nL2pW9eR4yU7iO1aS6dF3G', object: 'chat.completion', created: 1753781500, model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today? '.repeat(8), refusal: null }, logprobs: null, finish_reason: 'stop' }], usage: { prompt_tokens: 1342, completion_tokens: 9, total_tokens: 1351, prompt_tokens_details: { cached_tokens: 1280, audio_tokens: 0 } }, service_tier: 'default', system_fingerprint: 'fp_34a54ae93c' });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of events) res.write(event);
      res.end();
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completion);
    }
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

const requestBody = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Say hello in one short sentence, please.' },
  ],
  max_tokens: 64,
};
const headers = { authorization: 'Bearer sk-measure', accept: 'application/json' };

type Call = (url: string) => Promise<number>;

/** The transport as it was before: fetch, response.text(), web-stream SSE. */
const oldJson: Call = async (url) => {
  const signal = new AbortController().signal;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(requestBody), signal });
  if (!response.ok) throw new Error(`status ${response.status}`);
  const json: unknown = JSON.parse(await response.text());
  return json === null ? 0 : 1;
};

const oldSse: Call = async (url) => {
  const signal = new AbortController().signal;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(requestBody), signal });
  if (!response.ok || !response.body) throw new Error(`status ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  let count = 0;
  while (!(await reader.read()).done) count++;
  return count;
};

function newJson(http: HttpClient): Call {
  return async (url) => {
    const signal = new AbortController().signal;
    const response = await postJson({ provider: 'measure', http, url, headers, body: requestBody, signal });
    const json = await readResponseJson('measure', response, signal);
    return json === null ? 0 : 1;
  };
}

function newSse(http: HttpClient): Call {
  return async (url) => {
    const signal = new AbortController().signal;
    const response = await postJson({ provider: 'measure', http, url, headers, body: requestBody, signal });
    let count = 0;
    for await (const _ of readSse('measure', response.body, signal)) count++;
    return count;
  };
}

/** Median over `rounds` of the client CPU (user + system) per request, in µs, and wall time per request. */
async function measure(call: Call, url: string, expected: number): Promise<{ cpu: number; wall: number }> {
  for (let i = 0; i < warmup; i++) await call(url);
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const startCpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < requests; i++) {
      if ((await call(url)) !== expected) throw new Error('unexpected answer');
    }
    const used = process.cpuUsage(startCpu);
    wall.push(Number(process.hrtime.bigint() - start) / 1000 / requests);
    cpu.push((used.user + used.system) / requests);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { cpu: median(cpu), wall: median(wall) };
}

const upstream = spawn(process.execPath, ['-e', upstreamSource], { stdio: ['ignore', 'pipe', 'inherit'] });
const [portLine] = (await once(upstream.stdout, 'data')) as [Buffer];
const base = `http://127.0.0.1:${portLine.toString().trim()}`;
const undici = createUndiciHttpClient();
const viaFetch = fetchHttpClient(globalThis.fetch);

try {
  const cases: [string, Call, Call, Call, string, number][] = [
    ['JSON POST + JSON answer', oldJson, newJson(undici), newJson(viaFetch), `${base}/json`, 1],
    ['SSE stream of 16 events', oldSse, newSse(undici), newSse(viaFetch), `${base}/sse`, 16],
  ];
  console.log(`N = ${requests} sequential requests, median of ${rounds} rounds; client CPU µs/request (wall µs/request)`);
  for (const [name, old, current, fetchAdapter, url, expected] of cases) {
    const before = await measure(old, url, expected);
    const after = await measure(current, url, expected);
    const adapter = await measure(fetchAdapter, url, expected);
    const show = (m: { cpu: number; wall: number }) => `${m.cpu.toFixed(1)} (${m.wall.toFixed(1)})`;
    console.log(`${name}: old fetch ${show(before)} | undici ${show(after)} | fetchHttpClient ${show(adapter)}`);
  }
} finally {
  await undici.close();
  upstream.kill();
}
