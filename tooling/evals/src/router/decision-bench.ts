/**
 * Cost of a routing decision over the built-in catalog (100+ chat models), excluding the
 * embedding (given precomputed): route() without an embedding, with one (learned P(success)),
 * and strong/weak routing at a strong share.
 *
 *   pnpm --filter @svc/evals router:bench [--n 20000] [--models 100]
 *
 * `--models` keeps that many of the built-in chat models (every k-th, so every tier stays), as
 * issue 18's budget is stated for 100 models; 0 keeps them all.
 */
import { parseArgs } from 'node:util';
import { createCatalog } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';
import { createRouter, type RouteContext, type Router, shippedQualityModel, shippedQualityTrust } from '@svc/router';

const { values } = parseArgs({ options: { n: { type: 'string', default: '20000' }, models: { type: 'string', default: '100' } } });
const n = Number(values.n);
const builtIn = createCatalog().list({ kind: 'chat' });
const keep = Number(values.models) > 0 ? Math.min(builtIn.length, Number(values.models)) : builtIn.length;
const catalog = createCatalog(Array.from({ length: keep }, (_, i) => builtIn[Math.floor((i * builtIn.length) / keep)]!));
const models = catalog.list({ kind: 'chat' }).length;
const guard = process.env.NO_GUARD ? false : {};
const router = createRouter({ catalog, embedder: false, guard });
// The shipped model without its training domain: what the out-of-distribution check adds to a decision.
const withoutDomain = createRouter({ catalog, embedder: false, guard, quality: { ...shippedQualityModel(), domain: undefined }, qualityTrust: shippedQualityTrust });
const prompts = ['hi', 'Write a python function that sorts a list of tuples by the second item.', `Explain the difference between a stock and a bond. ${'Why? '.repeat(60)}`, 'Prove that the sum of two even integers is even, step by step.'];
const ask = (content: string): ChatRequest => ({ model: 'svc/auto', messages: [{ role: 'user', content }], stream: false, n: 1, includeUsage: false });
const embedding = Float32Array.from({ length: 384 }, (_, i) => Math.sin(i) / 10);
const ids = catalog.list({ kind: 'chat' }).map((m) => m.id);

function measure(name: string, context: RouteContext, on: Router = router): void {
  const times = new Float64Array(n);
  const cpu = new Float64Array(n);
  for (let i = 0; i < 2000; i++) on.route(ask(prompts[i % prompts.length]!), context);
  for (let i = 0; i < n; i++) {
    const request = ask(prompts[i % prompts.length]!);
    const c = process.cpuUsage();
    const t = performance.now();
    on.route(request, context);
    times[i] = (performance.now() - t) * 1000;
    const used = process.cpuUsage(c);
    cpu[i] = used.user + used.system;
  }
  times.sort();
  cpu.sort();
  const at = (a: Float64Array, q: number) => `${a[Math.floor(q * (n - 1))]!.toFixed(0)} µs`;
  console.log(`| ${name} | ${models} | ${at(times, 0.5)} | ${at(times, 0.99)} | ${at(cpu, 0.5)} | ${at(cpu, 0.99)} |`);
}

// Wall time includes preemption by other processes on a shared VM; CPU time (process.cpuUsage) does not.
console.log('| route() | chat models | wall p50 | wall p99 | CPU p50 | CPU p99 |\n|---|---|---|---|---|---|');
measure('no embedding (heuristic P(success), as the gateway calls it today)', {});
measure('with the embedding (learned P(success) per model)', { embedding });
measure('with the embedding, the shipped model without its training domain (no out-of-distribution check)', { embedding }, withoutDomain);
measure('strong/weak at strongShare 0.3', { embedding, strongShare: 0.3, strongModel: ids[0], weakModel: ids[ids.length - 1] });
