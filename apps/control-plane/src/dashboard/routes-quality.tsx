import { isGatewayError } from '@svc/core';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { gateEvaluations } from '../routes/admin-routing-gate.js';
import { parseShadowSettings, readShadowSettingsWire, storeShadowSettings } from '../routes/admin-shadow-judging.js';
import { field, optionalNumber } from './form-fields.js';
import { parseRange, periodOf, ranges } from './overview-data.js';
import { QualityPage } from './page-quality.js';
import { page } from './render.js';
import { requireDashboardAdmin, viewScope } from './scope.js';

/** The shadow-judging form as the admin API's body (blank candidates: the pool's defaults, its cheaper models and the closest pricier one; an unticked box: false); the API's schema checks it. */
async function shadowBody(c: Context<ControlEnv>): Promise<Record<string, unknown>> {
  const candidates = (await field(c, 'candidate_models'))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return {
    enabled: (await field(c, 'enabled')) === 'true',
    sample_rate: optionalNumber('sample_rate', await field(c, 'sample_rate'), false) ?? 0,
    candidate_models: candidates.length > 0 ? candidates : null,
    judge_model: await field(c, 'judge_model'),
    daily_budget_usd: optionalNumber('daily_budget_usd', await field(c, 'daily_budget_usd'), false) ?? 0,
    judge_error_rate: optionalNumber('judge_error_rate', await field(c, 'judge_error_rate'), false),
    cautious_start: (await field(c, 'cautious_start')) === 'true',
  };
}

/** The quality page of `orgQuery`'s scope; `refused`: a shadow-judging save the API refused (shown above the form, status 400). */
async function qualityPage(c: Context<ControlEnv>, deps: ControlPlaneDeps, orgQuery: string | undefined, refused?: string): Promise<Response> {
  const { user, session } = c.get('dashboard');
  const scope = await viewScope(deps, user, orgQuery);
  const range = parseRange(c.req.query('range'));
  const { since, until } = periodOf(range);
  const orgId = scope.org?.id;
  const [judged, gate, settings] = await Promise.all([
    deps.db.shadowVerdicts.judged({ since, until, ...(orgId ? { orgId } : {}) }),
    gateEvaluations(deps, { days: Math.ceil(ranges[range].hours / 24), scope: orgId ? { orgId } : {} }),
    orgId ? deps.db.settings.get(orgId) : undefined,
  ]);
  const shadow = orgId && settings ? await readShadowSettingsWire(deps, orgId, settings) : undefined;
  const props = { range, org: scope.org, orgs: scope.orgs, judged, gate, shadow, csrf: session.csrfToken, canEdit: user.role === 'admin', refused };
  return page(c, { title: 'Routing quality', user, csrf: session.csrfToken, active: 'quality', full: true }, <QualityPage {...props} />, refused === undefined ? 200 : 400);
}

/** Routing quality: judged win rates, the gate's route changes and shadow judging (issue 28, parts 3 and 5). */
export function registerQualityPages(dash: Hono<ControlEnv>, deps: ControlPlaneDeps, signedIn: MiddlewareHandler<ControlEnv>): void {
  dash.get('/quality', signedIn, (c) => qualityPage(c, deps, c.req.query('org')));

  dash.post('/quality/:org/shadow', signedIn, async (c) => {
    requireDashboardAdmin(c.get('dashboard').user);
    const org = (await viewScope(deps, c.get('dashboard').user, c.req.param('org'))).org!;
    try {
      await storeShadowSettings(deps, org.id, parseShadowSettings(deps, await shadowBody(c)));
    } catch (error) {
      if (!isGatewayError(error) || error.status !== 400) throw error;
      return qualityPage(c, deps, org.id, error.message);
    }
    return c.redirect(`/dashboard/quality?org=${org.id}`, 303);
  });
}
