import { type SloCompliance, judgeSlo, sloAlertKey, sloBounds, thresholdAllowed, thresholdRange } from '@svc/alerts';
import { type SloMetric, invalidRequest, notFound, sloMetrics } from '@svc/core';
import type { SloRecord } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { targetOrg, targetOrgQuery } from '../target-org.js';
import { validate } from '@svc/http-kit';
import { sloToWire } from './slo-wire.js';
import { readJson } from '../read-json.js';

/** SLOs one organisation may keep: each is judged in SQL every evaluation round. */
export const maxSlosPerOrg = 100;

function rangeMessage(metric: SloMetric): string {
  const range = thresholdRange(metric);
  const unit = range.unit === 'ratio' ? 'a ratio' : range.unit === 'ms' ? 'milliseconds' : 'USD';
  return `must be ${range.minExclusive ? 'greater than' : 'at least'} ${range.min} and at most ${range.max} (${unit}) for ${metric}`;
}

/** `SloRequest`: every field required; the threshold's range depends on the metric. Any other field is a 400 naming it. */
const sloSchema = v.pipe(
  strictBody({
    name: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'at most 100 characters')),
    metric: v.picklist(sloMetrics, `must be one of ${sloMetrics.join(', ')}`),
    threshold: v.pipe(v.number('must be a number'), v.finite('must be a finite number')),
    target: v.pipe(
      v.number('must be a number'),
      v.gtValue(sloBounds.targetMin, `must be greater than ${sloBounds.targetMin} and at most ${sloBounds.targetMax} (the share of good hours)`),
      v.maxValue(sloBounds.targetMax, `must be greater than ${sloBounds.targetMin} and at most ${sloBounds.targetMax} (the share of good hours)`),
    ),
    window_days: v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number of days'),
      v.minValue(sloBounds.windowDaysMin, `must be ${sloBounds.windowDaysMin}..${sloBounds.windowDaysMax}`),
      v.maxValue(sloBounds.windowDaysMax, `must be ${sloBounds.windowDaysMin}..${sloBounds.windowDaysMax}`),
    ),
  }),
  v.forward(
    v.check(
      (body) => thresholdAllowed(body.metric, body.threshold),
      (issue) => rangeMessage((issue.input as { metric: SloMetric }).metric),
    ),
    ['threshold'],
  ),
);

const tags = ['SLOs and alerts'];
const sloAnswer = '`SloResponse`: the SLO (`id`, `name`, `metric`, `threshold`, `target`, `window_days`, `objective`, `description`) with its `compliance` over the window ending now.';

export const putSloRoute = defineRoute({
  method: 'post',
  path: '/v1/slo',
  operationId: 'putSlo',
  summary: "Create the organisation's SLO, or replace its SLO of the same name",
  description: `The threshold's range depends on the metric. At most ${maxSlosPerOrg} SLOs per organisation. Any other field is a 400 naming it.`,
  tags,
  auth: bearer('observability:read'),
  query: targetOrgQuery,
  body: { schema: sloSchema, name: 'SloRequest' },
  responses: { 200: jsonResponse(sloAnswer) },
  errors: [400, 404, 413],
});

export const listSlosRoute = defineRoute({
  method: 'get',
  path: '/v1/slo',
  operationId: 'listSlos',
  summary: "The organisation's SLOs with their compliance",
  tags,
  auth: bearer('observability:read'),
  query: targetOrgQuery,
  responses: { 200: jsonResponse(`A \`list\` of SLOs; each is ${sloAnswer}`) },
  errors: [400, 404],
});

export const deleteSloRoute = defineRoute({
  method: 'delete',
  path: '/v1/slo/{id}',
  operationId: 'deleteSlo',
  summary: 'Remove an SLO (and resolve its firing alert)',
  tags,
  auth: bearer('observability:read'),
  params: v.object({ id: v.pipe(v.string(), v.description('The SLO id.')) }),
  query: targetOrgQuery,
  responses: { 200: jsonResponse('`{object: "slo", id, deleted: true}`.') },
  errors: [400, 404],
});

/** Judges each SLO over its window ending `now`, one SQL aggregate each (in turn: at most {@link maxSlosPerOrg} per organisation). */
export async function judgeSlos(deps: Pick<ControlPlaneDeps, 'db'>, slos: SloRecord[], now: Date): Promise<{ slo: SloRecord; compliance: SloCompliance }[]> {
  const out = [];
  for (const slo of slos) out.push({ slo, compliance: judgeSlo(slo, await deps.db.slos.windowStats(slo, now)) });
  return out;
}

async function withCompliance(deps: ControlPlaneDeps, slos: SloRecord[], now: Date) {
  return (await judgeSlos(deps, slos, now)).map(({ slo, compliance }) => sloToWire(slo, compliance, now));
}

/**
 * `POST /v1/slo` (spec document 2 `POST /`): creates the organisation's SLO, or replaces its SLO
 * of the same name, and answers it with its current compliance computed from the decision log
 * (200). `GET /v1/slo` lists them the same way; `DELETE /v1/slo/{id}` removes one and resolves
 * its firing alert. `?org_id=` lets an admin act on another organisation.
 */
export function registerSlo(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(putSloRoute, async (c) => {
    const body = validate(sloSchema, await readJson(c, deps.maxBodyBytes));
    const org = await targetOrg(c, deps);
    const existing = await deps.db.slos.list(org.id);
    if (existing.length >= maxSlosPerOrg && !existing.some((slo) => slo.name === body.name)) {
      throw invalidRequest(`An organisation keeps at most ${maxSlosPerOrg} SLOs; delete one or reuse a name to replace it.`, 'name');
    }
    const { slo } = await deps.db.slos.put({ orgId: org.id, name: body.name, metric: body.metric, threshold: body.threshold, target: body.target, windowDays: body.window_days });
    const [wire] = await withCompliance(deps, [slo], new Date());
    return c.json(wire);
  });

  routes.add(listSlosRoute, async (c) => {
    const org = await targetOrg(c, deps);
    return c.json({ object: 'list', data: await withCompliance(deps, await deps.db.slos.list(org.id), new Date()) });
  });

  routes.add(deleteSloRoute, async (c) => {
    const org = await targetOrg(c, deps);
    const id = c.req.param('id') ?? '';
    if (!(await deps.db.slos.delete(org.id, id))) throw notFound(`This organisation has no SLO '${id}'.`, 'id');
    await deps.db.alerts.resolve(sloAlertKey(id), { resolution: 'slo_deleted' });
    return c.json({ object: 'slo', id, deleted: true });
  });
}
