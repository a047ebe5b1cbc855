import { notFound } from '@svc/core';
import type { RoutingDecisionRecord } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import { type RouteDescriptor, adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { integerParam as integer } from '../integer-param.js';

/**
 * Admin report query parameters (spec document 2, shared by /decisions, /diversity, /drift,
 * /gate, /policy): `days` defaults to 7 and is clamped to 1..365; `limit` defaults to 100 and
 * must be 1..1000; `tenant_id` at most 64 and `model` at most 50 characters. Anything else is a
 * 400 naming the parameter. An empty value (`?model=`) counts as absent.
 */
export const reportQuerySchema = v.object({
  days: v.optional(
    v.pipe(
      integer,
      v.description('Window in days, an integer; clamped to 1..365.'),
      v.transform((days) => Math.min(365, Math.max(1, days))),
    ),
    '7',
  ),
  tenant_id: v.optional(v.pipe(v.string(), v.maxLength(64, 'at most 64 characters'), v.description('Only this organisation (tenant) id.'))),
  model: v.optional(v.pipe(v.string(), v.maxLength(50, 'at most 50 characters'), v.description('Only decisions served by this model.'))),
  limit: v.optional(
    v.pipe(integer, v.description('Most rows (or days, for the gate) answered, an integer 1..1000.'), v.minValue(1, 'must be at least 1'), v.maxValue(1000, 'must be at most 1000')),
    '100',
  ),
});

/** A `GET /v1/admin/routing/<report>` operation: admin only, the report query, one JSON answer. */
export function routingReportRoute(fields: Pick<RouteDescriptor, 'path' | 'operationId' | 'summary' | 'description'> & { answer: string }): RouteDescriptor {
  const { answer, ...rest } = fields;
  return defineRoute({
    ...rest,
    method: 'get',
    tags: ['Admin: routing reports'],
    auth: adminOnly,
    query: reportQuerySchema,
    responses: { 200: jsonResponse(answer) },
    errors: [400],
  });
}

export type ReportQuery = v.InferOutput<typeof reportQuerySchema>;

/** Parses the report query of a request, ignoring unknown parameters. */
export function parseReportQuery(query: Record<string, string>): ReportQuery {
  const { days, tenant_id, model, limit } = query;
  const present = Object.entries({ days, tenant_id, model, limit }).filter(([, value]) => value !== undefined && value !== '');
  return validate(reportQuerySchema, Object.fromEntries(present));
}

const requestIdSchema = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(200, 'at most 200 characters'),
  v.regex(/^[A-Za-z0-9_-]+$/, 'may hold only letters, digits, `_` and `-`'),
);

/**
 * `DecisionSummary` in wire names. `org_id` and `tenant_id` carry the same organisation id
 * (`tenant_id` is the name the report filter uses); `attempt_count` is the waterfall length.
 */
function toSummary(d: RoutingDecisionRecord) {
  return {
    object: 'routing_decision',
    request_id: d.requestId,
    org_id: d.orgId,
    tenant_id: d.orgId,
    requested_model: d.requestedModel,
    model: d.model,
    provider: d.provider,
    tier: d.tier,
    lane: d.lane,
    source: d.source,
    task_family: d.taskFamily,
    intelligence_mode: d.intelligenceMode,
    outcome: d.outcome,
    latency_ms: d.latencyMs,
    attempt_count: d.attempts.length,
    created_at: d.createdAt.toISOString(),
  };
}

/** `DecisionDetail`: the summary plus the waterfall attempts, scored candidates and audit details, as stored. */
function toDetail(d: RoutingDecisionRecord) {
  return { ...toSummary(d), attempts: d.attempts, candidates: d.candidates, details: d.details };
}

export const listDecisionsRoute = routingReportRoute({
  path: '/v1/admin/routing/decisions',
  operationId: 'listRoutingDecisions',
  summary: 'Recent routing decisions',
  answer: 'An array of `DecisionSummary` (`routing_decision` objects), newest first, at most `limit`.',
});

export const getDecisionRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/routing/decisions/{request_id}',
  operationId: 'getRoutingDecision',
  summary: 'One routing decision, with its waterfall and scored candidates',
  tags: ['Admin: routing reports'],
  auth: adminOnly,
  params: v.object({ request_id: requestIdSchema }),
  responses: { 200: jsonResponse('The `DecisionDetail`.') },
  errors: [400, 404],
});

/** `GET /decisions`, `GET /decisions/{request_id}` (spec document 2), mounted under /v1/admin/routing. */
export function registerRoutingDecisions(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(listDecisionsRoute, async (c) => {
    const query = parseReportQuery(c.req.query());
    const decisions = await deps.db.decisions.list({
      since: new Date(Date.now() - query.days * 86_400_000),
      limit: query.limit,
      ...(query.tenant_id !== undefined ? { orgId: query.tenant_id } : {}),
      ...(query.model !== undefined ? { model: query.model } : {}),
    });
    return c.json(decisions.map(toSummary));
  });

  routes.add(getDecisionRoute, async (c) => {
    const id = validate(v.object({ request_id: requestIdSchema }), { request_id: c.req.param('request_id') }).request_id;
    const decision = await deps.db.decisions.get(id);
    if (!decision) throw notFound(`No routing decision for request '${id}'.`, 'request_id');
    return c.json(toDetail(decision));
  });
}
