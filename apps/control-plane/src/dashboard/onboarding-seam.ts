/**
 * SEAM for the onboarding API (branch `alerts` builds `GET /v1/onboarding/next-step` and
 * `/progress`). Until it lands the dashboard derives the next step from what it can see itself;
 * the integrator passes the onboarding service as `ControlPlaneDeps.onboarding` (an
 * {@link OnboardingSource}) and the overview shows its answer instead.
 */

export interface NextStep {
  /** Stable id, e.g. `create_api_key`. */
  step: string;
  title: string;
  detail: string;
  href?: string;
}

/** What the overview knows about the organisation in view. */
export interface OnboardingFacts {
  /** The organisation in view; undefined when an admin looks at the whole fleet. */
  orgId: string | undefined;
  activeKeys: number;
  requests: number;
  cacheHits: number;
  /** Passkeys of the signed-in user. */
  passkeys: number;
}

export interface OnboardingSource {
  /** The next step to suggest, or undefined when there is nothing left to do. */
  nextStep(facts: OnboardingFacts): Promise<NextStep | undefined>;
}

/** The derived stand-in: the first missing step of key → traffic → cache → backup passkey. */
export const derivedOnboarding: OnboardingSource = {
  async nextStep(facts) {
    if (facts.orgId !== undefined && facts.activeKeys === 0) {
      return { step: 'create_api_key', title: 'Create an API key', detail: 'Your applications authenticate with it; the secret is shown once.', href: '/dashboard/keys' };
    }
    if (facts.requests === 0) {
      return { step: 'send_first_request', title: 'Send a first request', detail: 'Point an OpenAI SDK at this gateway (base URL …/v1) with your key; figures appear here within seconds.' };
    }
    if (facts.cacheHits === 0 && facts.requests >= 20) {
      return { step: 'enable_cache', title: 'Let repeated requests hit the cache', detail: 'Send `svc: {"intelligence_mode": "cache"}` (or set the organisation default) so identical prompts are answered free.' };
    }
    if (facts.passkeys < 2) {
      return { step: 'backup_passkey', title: 'Register a second passkey', detail: 'A backup device keeps you signed in if you lose this one.', href: '/dashboard/passkeys' };
    }
    return undefined;
  },
};
