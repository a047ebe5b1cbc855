// Plain data, without drizzle-orm: `@svc/db`'s index re-exports it, and the gateway's main thread
// (which never queries on the embedded store) loads the index only (docs/operations.md "Memory budget").

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
