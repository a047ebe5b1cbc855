import { invalidRequest } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { onboardingState, progressToWire } from '../onboarding-progress.js';
import { onboardingStepIds, onboardingSteps } from '../onboarding-steps.js';
import { targetOrg, targetOrgQuery } from '../target-org.js';
import { validate } from '@svc/http-kit';
import { readJson } from '../read-json.js';

const manualSteps = onboardingSteps.filter((step) => step.completion === 'manual').map((step) => step.id);

/** `UpdateProgressRequest`. */
const updateSchema = strictBody({
  step: v.picklist(onboardingStepIds, `must be one of ${onboardingStepIds.join(', ')}`),
  completed: v.boolean('must be true or false'),
});

const tags = ['Onboarding'];
const progressAnswer = '`{object: "onboarding_progress", org_id, steps: [...], completed_steps, total_steps, percent_complete, done}`.';

export const getOnboardingProgressRoute = defineRoute({
  method: 'get',
  path: '/v1/onboarding/progress',
  operationId: 'getOnboardingProgress',
  summary: 'The onboarding checklist with what the organisation has done',
  tags,
  auth: bearer('observability:read'),
  query: targetOrgQuery,
  responses: { 200: jsonResponse(progressAnswer) },
  errors: [400, 404],
});

export const updateOnboardingProgressRoute = defineRoute({
  method: 'post',
  path: '/v1/onboarding/progress',
  operationId: 'updateOnboardingProgress',
  summary: 'Mark (or unmark) a manual onboarding step',
  description: `Only manual steps (${manualSteps.join(', ')}); the others follow the organisation's data (400 naming \`step\`).`,
  tags,
  auth: bearer('observability:read'),
  query: targetOrgQuery,
  body: { schema: updateSchema, name: 'UpdateProgressRequest' },
  responses: { 201: jsonResponse(progressAnswer) },
  errors: [400, 404, 413],
});

/**
 * `GET /v1/onboarding/progress` and `POST /v1/onboarding/progress {step, completed}` (spec
 * document 2 `/progress`): the checklist with what the organisation has done. Derived steps
 * follow the organisation's data; only manual steps can be marked (or unmarked) by hand (201).
 * `?org_id=` lets an admin look at another organisation.
 */
export function registerOnboardingProgress(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(getOnboardingProgressRoute, async (c) => {
    const org = await targetOrg(c, deps);
    return c.json(progressToWire(org.id, await onboardingState(deps.db.onboarding, org.id)));
  });

  routes.add(updateOnboardingProgressRoute, async (c) => {
    const body = validate(updateSchema, await readJson(c, deps.maxBodyBytes));
    const step = onboardingSteps.find((entry) => entry.id === body.step)!;
    if (step.completion === 'derived') {
      throw invalidRequest(`step: '${step.id}' is completed by the gateway from your organisation's activity and cannot be set by hand; manual steps: ${manualSteps.join(', ')}.`, 'step');
    }
    const org = await targetOrg(c, deps);
    if (body.completed) await deps.db.onboarding.record(org.id, [{ step: step.id, source: 'manual', completedAt: new Date() }]);
    else await deps.db.onboarding.unmark(org.id, step.id);
    return c.json(progressToWire(org.id, await onboardingState(deps.db.onboarding, org.id)), 201);
  });
}
