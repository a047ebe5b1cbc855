// Plain data without drizzle-orm: packages/db/src/index.ts says why.

/** The onboarding steps the database can tell are done (`OnboardingRepository.firstOccurrences`; each one's query is in onboarding.ts). */
export const derivedOnboardingSteps = [
  'create_api_key',
  'first_request',
  'first_cache_hit',
  'add_provider_key',
  'create_slo',
  'configure_output',
  'register_passkey',
] as const;

export type DerivedOnboardingStep = (typeof derivedOnboardingSteps)[number];
