#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { isMockFault, type MockBehaviour, parseFaultKeys } from './behaviour.js';
import { startMockUpstream } from './server.js';

const USAGE = `usage: node tooling/mock-upstream/dist/main.js [--port 9100] [--host 127.0.0.1]
  [--latency-ms 0] [--tokens-per-second 0] [--tokens 16]
  [--fault 429|500|503|529|timeout|drop-mid-stream|context-length] [--fault-probability 1]
  [--fail-first N] [--fault-key <api-key>[=503] ...]
  --fault-key: requests carrying that key (Authorization: Bearer, x-api-key or x-goog-api-key)
  always get the fault (default 503); repeatable, e.g. one failing and one healthy provider.`;

function numberFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`mock-upstream: --${name} must be a non-negative number, got "${value}"\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9100' },
    host: { type: 'string', default: '127.0.0.1' },
    'latency-ms': { type: 'string' },
    'tokens-per-second': { type: 'string' },
    tokens: { type: 'string' },
    fault: { type: 'string' },
    'fault-probability': { type: 'string' },
    'fail-first': { type: 'string' },
    'fault-key': { type: 'string', multiple: true },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (values.fault !== undefined && !isMockFault(values.fault)) {
  console.error(`mock-upstream: unknown --fault "${values.fault}"\n${USAGE}`);
  process.exit(2);
}
const behaviour: Partial<MockBehaviour> = {};
const set = <K extends keyof MockBehaviour>(key: K, value: MockBehaviour[K] | undefined): void => {
  if (value !== undefined) behaviour[key] = value;
};
set('latencyMs', numberFlag('latency-ms', values['latency-ms']));
set('tokensPerSecond', numberFlag('tokens-per-second', values['tokens-per-second']));
set('tokens', numberFlag('tokens', values.tokens));
set('faultProbability', numberFlag('fault-probability', values['fault-probability']));
set('failFirst', numberFlag('fail-first', values['fail-first']));
if (values.fault !== undefined && isMockFault(values.fault)) behaviour.fault = values.fault;
if (values['fault-key'] !== undefined) {
  try {
    behaviour.faultKeys = parseFaultKeys(values['fault-key']);
  } catch (error) {
    console.error(`mock-upstream: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}

const mock = await startMockUpstream({
  port: numberFlag('port', values.port) ?? 9100,
  host: values.host,
  ...behaviour,
});
// The bench (and humans) read this line to learn the URL when --port 0 is used.
console.log(`mock-upstream listening on ${mock.url}`);
const stop = (): void => {
  void mock.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
