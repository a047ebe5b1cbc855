import type { OnboardingRepository } from '@svc/db';
import { onboardingState } from '../onboarding-progress.js';

/** The step the overview suggests next. */
export interface NextStep {
  /** Stable id, e.g. `create_api_key` (the onboarding checklist's). */
  step: string;
  title: string;
  detail: string;
  href?: string;
}

/** Dashboard pages of the checklist steps that have one. */
const pages: Readonly<Record<string, string>> = { create_api_key: '/dashboard/keys', register_passkey: '/dashboard/passkeys' };

const backupPasskey: NextStep = {
  step: 'backup_passkey',
  title: 'Register a second passkey',
  detail: 'A backup device keeps you signed in if you lose this one.',
  href: '/dashboard/passkeys',
};

/**
 * The overview's next step: for an organisation, the first step of the onboarding checklist it has
 * not done (`GET /v1/onboarding/next-step` answers the same, from the same state); once the
 * checklist is done, and for an admin looking at the whole fleet, a backup passkey while the
 * signed-in user has only one. `orgId`: the organisation in view (undefined for the fleet);
 * `passkeys`: how many the signed-in user has.
 */
export async function nextStep(
  repository: OnboardingRepository,
  facts: { orgId: string | undefined; passkeys: number },
): Promise<NextStep | undefined> {
  if (facts.orgId !== undefined) {
    const next = (await onboardingState(repository, facts.orgId)).find((state) => state.completedAt === null);
    if (next) {
      const href = pages[next.step.id];
      return { step: next.step.id, title: next.step.title, detail: `${next.step.description} ${next.step.action}.`, ...(href ? { href } : {}) };
    }
  }
  return facts.passkeys < 2 ? backupPasskey : undefined;
}
