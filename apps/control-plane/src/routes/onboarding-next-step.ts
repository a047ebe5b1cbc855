import { GatewayError } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { onboardingState } from '../onboarding-progress.js';
import { targetOrg, targetOrgQuery } from '../target-org.js';

export const onboardingNextStepRoute = defineRoute({
  method: 'get',
  path: '/v1/onboarding/next-step',
  operationId: 'getOnboardingNextStep',
  summary: 'The first onboarding step not done yet',
  description: 'With what to do; 404 `onboarding_complete` once every step is done.',
  tags: ['Onboarding'],
  auth: bearer('observability:read'),
  query: targetOrgQuery,
  responses: { 200: jsonResponse('`{object: "onboarding_next_step", org_id, step, title, description, completion, action, remaining_steps, total_steps}`.') },
  errors: [400, 404],
});

/**
 * `GET /v1/onboarding/next-step` (spec document 2 `/next-step`): the first step of the checklist
 * not done yet, with what to do; 404 `onboarding_complete` once every step is done.
 */
export function registerOnboardingNextStep(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(onboardingNextStepRoute, async (c) => {
    const org = await targetOrg(c, deps);
    const states = await onboardingState(deps.db.onboarding, org.id);
    const next = states.find((state) => state.completedAt === null);
    if (!next) throw new GatewayError({ status: 404, type: 'not_found_error', code: 'onboarding_complete', message: 'Every onboarding step is done: there is no next step.', param: null });
    return c.json({
      object: 'onboarding_next_step',
      org_id: org.id,
      step: next.step.id,
      title: next.step.title,
      description: next.step.description,
      completion: next.step.completion,
      action: next.step.action,
      remaining_steps: states.filter((state) => state.completedAt === null).length,
      total_steps: states.length,
    });
  });
}
