import type { DerivedOnboardingStep } from '@svc/db';

/**
 * The onboarding checklist, in the order it is recommended. A `derived` step is completed by the
 * gateway from the organisation's own data (`OnboardingRepository.firstOccurrences`, one query
 * per step, kept once seen) and cannot be set by hand; a `manual` step is something the gateway
 * cannot observe and is marked with `POST /v1/onboarding/progress`.
 */
export type OnboardingStepDefinition =
  | { id: DerivedOnboardingStep; completion: 'derived'; title: string; description: string; action: string }
  | { id: ManualOnboardingStep; completion: 'manual'; title: string; description: string; action: string };

export type ManualOnboardingStep = 'go_live';

export const onboardingSteps: readonly OnboardingStepDefinition[] = [
  {
    id: 'create_api_key',
    completion: 'derived',
    title: 'Create an API key',
    description: 'A key for your application, with the scopes it needs.',
    action: 'POST /v1/admin/keys (admin), or `pnpm svc keys create --org NAME`',
  },
  {
    id: 'first_request',
    completion: 'derived',
    title: 'Send your first request',
    description: 'Point an OpenAI or Anthropic SDK at the gateway and get an answer.',
    action: 'POST /v1/chat/completions on the inference API with your key',
  },
  {
    id: 'first_cache_hit',
    completion: 'derived',
    title: 'Get an answer from the cache',
    description: 'Send the same deterministic request twice in intelligence mode cache or full: the second answer is free.',
    action: 'Repeat a request with temperature 0 (or a seed); x-svc-cache-hit: true',
  },
  {
    id: 'add_provider_key',
    completion: 'derived',
    title: 'Bring your own provider key',
    description: "Store your organisation's own provider key (BYOK): its requests are billed by the provider to you.",
    action: 'PUT /v1/admin/orgs/{id}/provider-keys/{provider} (admin)',
  },
  {
    id: 'create_slo',
    completion: 'derived',
    title: 'Define a service-level objective',
    description: 'An SLO on availability, latency, cache hit rate or cost; a breach raises an alert.',
    action: 'POST /v1/slo',
  },
  {
    id: 'configure_output',
    completion: 'derived',
    title: 'Choose your output verification',
    description: 'How JSON answers are verified, healed and re-asked when a request does not say.',
    action: 'PUT /v1/output/config',
  },
  {
    id: 'register_passkey',
    completion: 'derived',
    title: 'Sign in to the dashboard with a passkey',
    description: 'A dashboard user of the organisation registers a passkey: sign-in without passwords, at AAL2.',
    action: 'Open the enrollment link from POST /v1/admin/users (or `pnpm svc users create`), then register a passkey',
  },
  {
    id: 'go_live',
    completion: 'manual',
    title: 'Go live',
    description: 'Your production traffic goes through the gateway. Only you can tell; mark it done.',
    action: 'POST /v1/onboarding/progress {"step": "go_live", "completed": true}',
  },
];

export const onboardingStepIds = onboardingSteps.map((step) => step.id);
