import { invalidRequest } from '@svc/core';
import type { LedgerFilter, UsageEvent } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import { validate } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { orgParams, pathOrg } from './admin-params.js';

const timestamp = (what: string) => v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO-8601 timestamp'), v.description(what)));
const tagName = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description('A request metadata key (e.g. `team`, `feature`).'));
const window = { since: timestamp('Rows created at or after this time.'), until: timestamp('Rows created before this time.') };

const byTagQuery = v.object({ tag: tagName, ...window });

const exportQuery = v.object({
  format: v.optional(v.picklist(['csv', 'jsonl'], "must be 'csv' or 'jsonl'"), 'jsonl'),
  org_id: v.optional(v.pipe(v.string(), v.description("Only this organisation's rows."))),
  key_id: v.optional(v.pipe(v.string(), v.description("Only this API key's rows."))),
  model: v.optional(v.pipe(v.string(), v.description('Only rows of this model (catalog slug).'))),
  tag: v.optional(v.pipe(v.string(), v.minLength(1), v.description('Only rows whose request metadata has this key (`team`), or this key and value (`team:search`).'))),
  ...window,
});

export const spendByTagRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/spend/by-tag',
  operationId: 'getOrganizationSpendByTag',
  summary: "An organisation's spend and usage by a request metadata tag",
  description:
    'Cost attribution: the ledger rows of the organisation in the window, grouped by the value its requests gave the metadata key `tag` (`metadata: {"team": "search"}` on chat, Messages, Responses). Requests without it are the `null` group. Costliest first.',
  tags: ['Admin: organisations'],
  auth: adminOnly,
  params: orgParams,
  query: byTagQuery,
  responses: { 200: jsonResponse('`{object: "spend_by_tag", org_id, tag, since, until, data: [{value, requests, prompt_tokens, completion_tokens, cost_usd, interactive_cost_usd, savings_usd}]}`; `interactive_cost_usd` is what the rows would have cost at interactive prices (batch lines a provider answered at its batch price), `savings_usd` the difference (`tag=batch_id`: what each batch saved).') },
  errors: [400, 404],
});

export const ledgerExportRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/ledger/export',
  operationId: 'exportLedger',
  summary: 'Export the usage ledger',
  description:
    'Every ledger row in the filter, oldest first, streamed page by page as JSON lines (`format=jsonl`, the default) or CSV with a header row (`format=csv`; `tags` as a JSON object). Filters: time window, organisation, key, model and metadata tag.',
  tags: ['Admin: organisations'],
  auth: adminOnly,
  query: exportQuery,
  responses: { 200: { description: 'The rows (`application/x-ndjson` or `text/csv`).', content: { 'application/x-ndjson': null, 'text/csv': null } } },
  errors: [400],
});

/** Columns of an exported row, in order (CSV header and JSON keys). */
const columns = ['request_id', 'created_at', 'org_id', 'key_id', 'model', 'provider', 'prompt_tokens', 'completion_tokens', 'cached_tokens', 'cost_usd', 'baseline_cost_usd', 'interactive_cost_usd', 'cache_hit', 'status', 'stream', 'latency_ms', 'tags'] as const;

function exported(row: UsageEvent): Record<(typeof columns)[number], unknown> {
  return {
    request_id: row.requestId,
    created_at: row.createdAt.toISOString(),
    org_id: row.orgId,
    key_id: row.keyId,
    model: row.model,
    provider: row.provider,
    prompt_tokens: row.promptTokens,
    completion_tokens: row.completionTokens,
    cached_tokens: row.cachedTokens,
    cost_usd: row.costUsd,
    baseline_cost_usd: row.baselineCostUsd,
    interactive_cost_usd: row.interactiveCostUsd ?? null,
    cache_hit: row.cacheHit,
    status: row.status,
    stream: row.stream,
    latency_ms: row.latencyMs,
    tags: row.tags ?? null,
  };
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; objects as JSON. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function dateOf(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : new Date(value);
}

function filterOf(query: v.InferOutput<typeof exportQuery>): LedgerFilter {
  const filter: LedgerFilter = {};
  if (query.org_id) filter.orgId = query.org_id;
  if (query.key_id) filter.keyId = query.key_id;
  if (query.model) filter.model = query.model;
  if (query.tag) {
    const at = query.tag.indexOf(':');
    filter.tag = at < 0 ? { key: query.tag } : { key: query.tag.slice(0, at), value: query.tag.slice(at + 1) };
  }
  const since = dateOf(query.since);
  const until = dateOf(query.until);
  if (since) filter.since = since;
  if (until) filter.until = until;
  return filter;
}

/** Rows read per page of an export: bounded memory whatever the ledger's size. */
const PAGE_ROWS = 500;

/** The export as a stream of text, one page of rows read at a time (the next only once the client took the last). */
function exportStream(deps: ControlPlaneDeps, filter: LedgerFilter, format: 'csv' | 'jsonl'): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: UsageEvent | undefined;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return controller.close();
      const rows = await deps.db.usage.exportPage(filter, PAGE_ROWS, after);
      const lines: string[] = [];
      if (!started && format === 'csv') lines.push(columns.join(','));
      started = true;
      for (const row of rows) {
        const record = exported(row);
        lines.push(format === 'csv' ? columns.map((column) => csvField(record[column])).join(',') : JSON.stringify(record));
      }
      after = rows.at(-1);
      done = rows.length < PAGE_ROWS;
      if (lines.length > 0) controller.enqueue(encoder.encode(`${lines.join('\n')}\n`));
      if (done) controller.close();
    },
  });
}

export function registerAdminLedger(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(spendByTagRoute, async (c) => {
    const org = await pathOrg(c, deps);
    const query = validate(byTagQuery, c.req.query());
    const since = dateOf(query.since);
    const until = dateOf(query.until);
    const groups = await deps.db.usage.byTag(org.id, query.tag, { ...(since ? { since } : {}), ...(until ? { until } : {}) });
    return c.json({
      object: 'spend_by_tag',
      org_id: org.id,
      tag: query.tag,
      since: query.since ?? null,
      until: query.until ?? null,
      data: groups.map((group) => ({
        value: group.value,
        requests: group.requests,
        prompt_tokens: group.promptTokens,
        completion_tokens: group.completionTokens,
        cost_usd: group.costUsd,
        interactive_cost_usd: group.interactiveCostUsd,
        savings_usd: Math.max(0, group.interactiveCostUsd - group.costUsd),
      })),
    });
  });

  routes.add(ledgerExportRoute, (c) => {
    const query = validate(exportQuery, c.req.query());
    const filter = filterOf(query);
    if (filter.since && filter.until && filter.since >= filter.until) throw invalidRequest('since must be before until.', 'since');
    const day = new Date().toISOString().slice(0, 10);
    return c.body(exportStream(deps, filter, query.format), 200, {
      'content-type': query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
      'content-disposition': `attachment; filename="svc-ledger-${day}.${query.format}"`,
    });
  });
}
