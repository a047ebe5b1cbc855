/**
 * The per-task learner's simulation through a running gateway (issue 28): a gateway process with
 * OpenAI pointed at an in-process mock upstream answering each model with the data's outcome and
 * judging from the labels (`live-script.ts`), an organisation allowed only the two models, with
 * shadow judging on (candidates: the pool's defaults, the other model either way; judge: the stronger one). The stream is asked
 * with an alias (default `svc/auto`); the served model, usage and every ledger row (shadow and judge calls included)
 * come from the gateway.
 */
import { startMockUpstream } from '@svc/mock-upstream';
import { type LiveGateway, startLiveGateway } from '../semantic/live/gateway.js';
import type { Item } from './data.js';
import { type StartReading, readStart } from './live-start.js';
import { outcomeScript } from './live-script.js';
import { seeded } from './metrics.js';

export interface LiveModel {
  /** Catalog slug (`openai/gpt-4.1`) and the data column it answers with. */
  slug: string;
  column: string;
  /** USD per million prompt and completion tokens (the catalog's). */
  input: number;
  output: number;
}

export interface LiveSettings {
  strong: LiveModel;
  weak: LiveModel;
  requests: number;
  judged: number;
  flip: number;
  seed: number;
  concurrency: number;
  /** The alias asked for, and `routing_hints.preference_dial` (also the learner's tolerance, 0.15 (1 - d)). */
  model: string;
  dial: number | undefined;
}

/** One request of the stream as the gateway answered it. */
export interface Served {
  item: Item;
  requestId: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

interface ChatAnswer {
  model: string;
  usage: { prompt_tokens: number; completion_tokens: number };
  svc_metadata?: { cost_usd?: number };
}

const upstreamName = (slug: string) => slug.slice(slug.indexOf('/') + 1);

async function admin(g: LiveGateway, method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${g.controlUrl}${path}`, { method, headers: { authorization: `Bearer ${g.masterKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** An organisation allowed only the two models, shadow judging on, and a chat key. */
async function simulationOrg(g: LiveGateway, s: LiveSettings): Promise<{ orgId: string; key: string }> {
  const org = await admin(g, 'POST', '/v1/admin/orgs', { name: `simulation-${Date.now()}`, model_access: { allow: [s.strong.slug, s.weak.slug] } });
  const orgId = org['id'] as string;
  // No candidate models named: the pool's defaults, the cheaper model for a request served by the strong one and
  // the pricier one for a request the router sent to the cheap one (a route up can be judged).
  await admin(g, 'PUT', `/v1/admin/orgs/${orgId}/shadow-judging`, { enabled: true, sample_rate: s.judged, judge_model: s.strong.slug, daily_budget_usd: 100_000 });
  const key = await admin(g, 'POST', '/v1/admin/keys', { org_id: orgId, scopes: ['inference:chat'] });
  return { orgId, key: key['key'] as string };
}

async function ask(g: LiveGateway, key: string, s: LiveSettings, item: Item): Promise<Served> {
  const response = await fetch(`${g.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-intelligence-mode': 'cache' },
    body: JSON.stringify({ model: s.model, messages: [{ role: 'user', content: item.prompt }], ...(s.dial === undefined ? {} : { routing_hints: { preference_dial: s.dial } }) }),
  });
  if (response.status !== 200) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
  const answer = (await response.json()) as ChatAnswer;
  return {
    item,
    requestId: response.headers.get('x-svc-request-id') ?? '',
    model: answer.model,
    promptTokens: answer.usage.prompt_tokens,
    completionTokens: answer.usage.completion_tokens,
    costUsd: answer.svc_metadata?.cost_usd ?? 0,
  };
}

/** The organisation's ledger rows (`request_id`, `cost_usd`), from the admin export. */
async function ledger(g: LiveGateway, orgId: string): Promise<{ request_id: string; cost_usd: number }[]> {
  const response = await fetch(`${g.controlUrl}/v1/admin/ledger/export?org_id=${orgId}&format=jsonl`, { headers: { authorization: `Bearer ${g.masterKey}` } });
  const text = await response.text();
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { request_id: string; cost_usd: number });
}

/** Waits until the shadow and judge rows stop growing (the gateway judges after answering). */
async function settledLedger(g: LiveGateway, orgId: string): Promise<{ request_id: string; cost_usd: number }[]> {
  let rows = await ledger(g, orgId);
  for (let still = 0; still < 3; ) {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const next = await ledger(g, orgId);
    still = next.length === rows.length ? still + 1 : 0;
    rows = next;
  }
  return rows;
}

/** What the gateway's reports say it learned: judged win rates per task kind (benchmarks) and the learner's route-change rulings (gate). */
export interface Learned {
  judged: { task_kind: string; model: string; samples: number; win_rate: number; interval: { low: number; high: number } }[];
  rulings: { task_kind: string; from: string; to: string; status: string; reason: string; decisions?: number; judged?: { samples: number; win_rate: number | null } }[];
}

async function learned(g: LiveGateway, orgId: string): Promise<Learned> {
  const get = async (path: string) => (await (await fetch(`${g.controlUrl}${path}`, { headers: { authorization: `Bearer ${g.masterKey}` } })).json()) as Record<string, unknown>;
  const benchmarks = await get(`/v1/observability/benchmarks?org_id=${orgId}&days=1`);
  const gate = await get(`/v1/admin/routing/gate?tenant_id=${orgId}&days=1`);
  const evaluations = (gate['evaluations'] ?? []) as { route_changes?: (Learned['rulings'][number] & { origin: string })[] }[];
  return { judged: (benchmarks['judged'] ?? []) as Learned['judged'], rulings: evaluations.flatMap((e) => (e.route_changes ?? []).filter((c) => c.origin === 'learner')) };
}

/** Runs the stream; returns each request as served, the extra cost (shadow + judge) per request id, what the gateway reports it learned, and its latency figures at the start. */
export async function runLive(items: readonly Item[], s: LiveSettings, log: (line: string) => void): Promise<{ served: Served[]; extra: Map<string, number>; learned: Learned; start: StartReading }> {
  const columns = { [upstreamName(s.strong.slug)]: s.strong.column, [upstreamName(s.weak.slug)]: s.weak.column };
  const upstream = await startMockUpstream({ tokens: 8, script: outcomeScript(items, columns, s.flip) });
  const gateway = await startLiveGateway({ OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${upstream.url}/v1`, SVC_CACHE_TTL_SECS: '0' });
  try {
    const { orgId, key } = await simulationOrg(gateway, s);
    const next = seeded(s.seed);
    const stream = Array.from({ length: s.requests }, () => items[Math.floor(next() * items.length)]!);
    const served: Served[] = new Array(stream.length);
    let at = 0;
    const worker = async () => {
      while (at < stream.length) {
        const n = at++;
        served[n] = await ask(gateway, key, s, stream[n]!);
        if ((n + 1) % 1000 === 0) log(`${n + 1} requests`);
      }
    };
    await Promise.all(Array.from({ length: s.concurrency }, worker));
    const extra = new Map<string, number>();
    for (const row of await settledLedger(gateway, orgId)) {
      const part = /^(.*):(shadow|judge:\d)$/.exec(row.request_id);
      if (part) extra.set(part[1]!, (extra.get(part[1]!) ?? 0) + row.cost_usd);
    }
    const start = await readStart(gateway, served.map((r) => r.requestId), { strong: s.strong.slug, weak: s.weak.slug });
    return { served, extra, learned: await learned(gateway, orgId), start };
  } finally {
    await gateway.stop();
    await upstream.close();
  }
}
