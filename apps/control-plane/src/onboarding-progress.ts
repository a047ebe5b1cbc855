import type { DerivedOnboardingStep, OnboardingRepository } from '@svc/db';
import { type OnboardingStepDefinition, onboardingSteps } from './onboarding-steps.js';

export interface OnboardingStepState {
  step: OnboardingStepDefinition;
  completedAt: Date | null;
}

/**
 * Where an organisation stands: its recorded completions, plus the derived steps its data shows
 * done since (recorded now, so their query never runs again). Steps in checklist order.
 */
export async function onboardingState(repository: OnboardingRepository, orgId: string): Promise<OnboardingStepState[]> {
  const recorded = new Map((await repository.completed(orgId)).map((entry) => [entry.step, entry.completedAt]));
  const pending = onboardingSteps.flatMap((step) => (step.completion === 'derived' && !recorded.has(step.id) ? [step.id as DerivedOnboardingStep] : []));
  if (pending.length > 0) {
    const seen = await repository.firstOccurrences(orgId, pending);
    const done = pending.flatMap((step) => (seen[step] ? [{ step, source: 'derived' as const, completedAt: seen[step] }] : []));
    await repository.record(orgId, done);
    for (const entry of done) recorded.set(entry.step, entry.completedAt);
  }
  return onboardingSteps.map((step) => ({ step, completedAt: recorded.get(step.id) ?? null }));
}

/** `OnboardingProgress`. */
export function progressToWire(orgId: string, states: readonly OnboardingStepState[]) {
  const completed = states.filter((state) => state.completedAt !== null).length;
  return {
    object: 'onboarding_progress',
    org_id: orgId,
    completed_steps: completed,
    total_steps: states.length,
    percent_complete: Math.round((completed / states.length) * 100),
    done: completed === states.length,
    steps: states.map(({ step, completedAt }) => ({
      step: step.id,
      title: step.title,
      description: step.description,
      completion: step.completion,
      completed: completedAt !== null,
      completed_at: completedAt?.toISOString() ?? null,
    })),
  };
}
