import { invalidRequest } from '@svc/core';
import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { onboardingState, progressToWire } from '../onboarding-progress.js';
import { onboardingStepIds, onboardingSteps } from '../onboarding-steps.js';
import { targetOrg } from '../target-org.js';
import { validate } from '../validate.js';

const manualSteps = onboardingSteps.filter((step) => step.completion === 'manual').map((step) => step.id);

/** `UpdateProgressRequest`. */
const updateSchema = v.object({
  step: v.picklist(onboardingStepIds, `must be one of ${onboardingStepIds.join(', ')}`),
  completed: v.boolean('must be true or false'),
});

/**
 * `GET /v1/onboarding/progress` and `POST /v1/onboarding/progress {step, completed}` (spec
 * document 2 `/progress`): the checklist with what the organisation has done. Derived steps
 * follow the organisation's data; only manual steps can be marked (or unmarked) by hand (201).
 * `?org_id=` lets an admin look at another organisation.
 */
export function registerOnboardingProgress(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/onboarding/progress', async (c) => {
    const org = await targetOrg(c, deps);
    return c.json(progressToWire(org.id, await onboardingState(deps.db.onboarding, org.id)));
  });

  app.post('/v1/onboarding/progress', async (c) => {
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
