import type { DashboardUserRecord } from '@svc/auth';
import { authorizationError, notFound, type Organization } from '@svc/core';
import type { ControlPlaneDeps } from '../deps.js';

/** Which organisation a page shows: a member always its own; an admin any (`?org=`) or the whole fleet. */
export interface ViewScope {
  /** Undefined = the fleet (admins only). */
  org: Organization | undefined;
  /** Every organisation, for an admin's picker; empty for members. */
  orgs: Organization[];
}

export async function viewScope(deps: Pick<ControlPlaneDeps, 'db'>, user: DashboardUserRecord, requested: string | undefined): Promise<ViewScope> {
  if (user.role !== 'admin') {
    if (requested && requested !== user.orgId) throw authorizationError('tenant_violation', 'You can only see your own organisation.');
    const org = await deps.db.orgs.get(user.orgId);
    if (!org) throw notFound('Your organisation no longer exists.');
    return { org, orgs: [] };
  }
  const orgs = await deps.db.orgs.list();
  if (!requested) return { org: undefined, orgs };
  const org = orgs.find((o) => o.id === requested);
  if (!org) throw notFound(`No organisation '${requested}'.`, 'org');
  return { org, orgs };
}

/** Whether the user may see or act on `orgId` (admins: any; members: their own). */
export function canSee(user: DashboardUserRecord, orgId: string): boolean {
  return user.role === 'admin' || user.orgId === orgId;
}

/** Throws 403 unless the user may act on `orgId` (admins: any; members: their own). */
export function requireOrgAccess(user: DashboardUserRecord, orgId: string): void {
  if (!canSee(user, orgId)) throw authorizationError('tenant_violation', 'This belongs to another organisation.');
}

/** Throws 403 unless the user is an admin (fleet-wide actions). */
export function requireDashboardAdmin(user: DashboardUserRecord): void {
  if (user.role !== 'admin') throw authorizationError('forbidden', 'This needs the admin role.');
}
