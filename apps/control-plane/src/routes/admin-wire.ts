import type { ApiKeyRecord } from '@svc/auth';
import type { Organization } from '@svc/core';
import { guardrailsToWire } from './admin-guardrails.js';
import { modelAccessToWire } from './admin-model-access.js';

/** Organisation in wire names (admin API, DESIGN.md §3). */
export function orgToWire(org: Organization) {
  return {
    id: org.id,
    object: 'organization',
    name: org.name,
    plan: org.plan,
    rpm_limit: org.rpmLimit,
    tpm_limit: org.tpmLimit,
    monthly_budget_usd: org.monthlyBudgetUsd,
    token_quota: org.tokenQuota,
    default_intelligence_mode: org.defaultIntelligenceMode,
    free_models_only: org.freeModelsOnly === true,
    pass_through_models: org.passThroughModels !== false,
    memory_scope: org.memoryScope ?? 'end_user',
    model_access: modelAccessToWire(org.modelAccess),
    guardrails: guardrailsToWire(org.guardrails),
    created_at: org.createdAt.toISOString(),
  };
}

/** A key without its secret. */
export function keyToWire(key: ApiKeyRecord) {
  return {
    id: key.id,
    object: 'api_key',
    org_id: key.orgId,
    name: key.name,
    prefix: key.keyPrefix,
    kind: key.kind,
    scopes: key.scopes,
    status: key.status,
    expires_at: key.expiresAt?.toISOString() ?? null,
    rpm_limit: key.rpmLimit,
    tpm_limit: key.tpmLimit,
    monthly_budget_usd: key.monthlyBudgetUsd,
    model_access: modelAccessToWire(key.modelAccess),
    guardrails: guardrailsToWire(key.guardrails),
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
