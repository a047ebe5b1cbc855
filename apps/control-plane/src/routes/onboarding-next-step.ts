import { GatewayError } from '@svc/core';
import type { Hono } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { onboardingState } from '../onboarding-progress.js';
import { targetOrg } from '../target-org.js';

/**
 * `GET /v1/onboarding/next-step` (spec document 2 `/next-step`): the first step of the checklist
 * not done yet, with what to do; 404 `onboarding_complete` once every step is done.
 */
export function registerOnboardingNextStep(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/onboarding/next-step', async (c) => {
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
