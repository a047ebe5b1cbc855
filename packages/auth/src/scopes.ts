import { type Caller, type Scope, authorizationError, isScope, scopes as allScopes } from '@svc/core';

/** Throws 403 `insufficient_scopes` unless the caller holds `scope` (or `admin`). */
export function requireScope(caller: Caller, scope: Scope): void {
  if (caller.scopes.has(scope) || caller.scopes.has('admin')) return;
  throw authorizationError('insufficient_scopes', `This key lacks the '${scope}' scope.`);
}

/** Throws 403 `forbidden` unless the caller is an admin. */
export function requireAdmin(caller: Caller): void {
  if (!caller.scopes.has('admin')) throw authorizationError('forbidden', 'This operation requires the admin role.');
}

/** Throws 403 `tenant_violation` when a non-admin caller touches another organisation. */
export function requireSameOrg(caller: Caller, orgId: string): void {
  if (caller.org.id !== orgId && !caller.scopes.has('admin')) {
    throw authorizationError('tenant_violation', 'This key belongs to another organisation.');
  }
}

/** Validates a requested scope list; unknown names are a caller error (returned, not thrown). */
export function parseScopes(values: readonly string[]): { scopes: Scope[] } | { unknown: string } {
  const out: Scope[] = [];
  for (const value of values) {
    if (!isScope(value)) return { unknown: value };
    if (!out.includes(value)) out.push(value);
  }
  return { scopes: out };
}

export const allScopesList: readonly Scope[] = allScopes;
