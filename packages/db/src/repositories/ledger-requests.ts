import { type SQL, sql } from 'drizzle-orm';

/** The ledger categories of shadow judging's calls: `<request id>:shadow`, `<request id>:judge:1|2`. */
export const SHADOW_PARTS = ['shadow', 'judge'] as const;

/**
 * The usage ledger's rows matching `where` (on alias `u`) as one row per request: a request's
 * `<id>:<part>` rows (a re-ask or speculation draft, voice steps and fee, realtime minutes) are
 * summed under the id before the colon; its time is the first row's, its latency and status the
 * largest, its interactive price the sum of its rows' (null when every row was billed at interactive prices), its model, key, end user, injected memories, batch (tag `batch_id`) and guardrail decisions (tag `svc.guardrails`) the base row's (it sorts before its
 * suffixed rows). Shadow judging's `<id>:shadow` and `<id>:judge:N` rows are left out: they are
 * not part of serving the request (the ledger, its export and spend summaries keep them, as their
 * own category). A SELECT, to be wrapped as a CTE or a subquery.
 */
export function ledgerRequests(where: SQL): SQL {
  return sql`
    SELECT split_part(u.request_id, ':', 1) AS id,
      (array_agg(u.model ORDER BY u.request_id))[1] AS model,
      (array_agg(u.org_id ORDER BY u.request_id))[1] AS org_id,
      (array_agg(u.key_id ORDER BY u.request_id))[1] AS key_id,
      (array_agg(u.end_user ORDER BY u.request_id))[1] AS end_user,
      (array_agg(u.memory_injected ORDER BY u.request_id))[1] AS memory_injected,
      (array_agg(u.tags->>'batch_id' ORDER BY u.request_id))[1] AS batch_id,
      (array_agg(u.tags->>'svc.guardrails' ORDER BY u.request_id))[1] AS guardrails,
      min(u.created_at) AS created_at,
      max(u.latency_ms) AS latency_ms,
      max(u.status) AS status,
      bool_or(u.cache_hit) AS cache_hit,
      sum(u.prompt_tokens) AS prompt_tokens,
      sum(u.completion_tokens) AS completion_tokens,
      sum(u.cached_tokens) AS cached_tokens,
      sum(u.cost_usd) AS cost_usd,
      sum(u.baseline_cost_usd) AS baseline_cost_usd,
      sum(u.interactive_cost_usd) AS interactive_cost_usd
    FROM usage_events u
    WHERE ${where} AND split_part(u.request_id, ':', 2) NOT IN (${sql.join(SHADOW_PARTS.map((part) => sql`${part}`), sql`, `)})
    GROUP BY 1`;
}
