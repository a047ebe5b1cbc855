import type { ApiKeyRecord } from '@svc/auth';
import { invalidRequest, type Organization } from '@svc/core';
import type { RequestLogPage, TagSpend } from '@svc/db';
import { endUserSubject } from '@svc/memory';
import type { ControlPlaneDeps } from '../deps.js';
import { periodOf, type RangeId, ranges } from './overview-data.js';

/** The request log's filters as the page's query string holds them ('' = none). */
export interface RequestFilters {
  range: RangeId;
  key: string;
  model: string;
  /** What was typed: an end user id, or the hash the access log shows (`u:` + 32 hex). */
  user: string;
  /** A batch id: its lines only. */
  batch: string;
  cursor: string;
}

/** The end user's hash as the access log and the ledger hold it. */
const endUserHash = /^u:[0-9a-f]{32}$/;

/** Reads the filters; a value over 200 characters is a 400 naming its parameter. */
export function parseRequestFilters(query: (name: string) => string | undefined): RequestFilters {
  const text = (name: string) => {
    const value = (query(name) ?? '').trim();
    if (value.length > 200) throw invalidRequest(`${name}: at most 200 characters.`, name);
    return value;
  };
  const range = query('range');
  return { range: range !== undefined && range in ranges ? (range as RangeId) : '24h', key: text('key'), model: text('model'), user: text('user'), batch: text('batch'), cursor: text('cursor') };
}

/**
 * The end user filter as stored: a hash passes as it is; an id is hashed the way the gateway
 * hashes it (`endUserSubject`), which needs the organisation, so the fleet view takes hashes only.
 */
export function endUserFilter(user: string, org: Organization | undefined): string | undefined {
  if (user === '') return undefined;
  if (endUserHash.test(user)) return user;
  if (!org) throw invalidRequest('Pick an organisation to search by end user id, or give the hash the access log shows (u: and 32 hex digits).', 'user');
  return endUserSubject(org.id, user);
}

export interface RequestLogView {
  filters: RequestFilters;
  page: RequestLogPage;
  /** The keys of the scope, for the key picker and to name a row's key. */
  keys: ApiKeyRecord[];
  /** The hash searched for, when an end user filter is set. */
  endUser: string | undefined;
  /** The batch filter's lines in the period summed (an organisation's view only): cost, and what they would have cost at interactive prices. */
  batch: TagSpend | undefined;
}

/** The batch's ledger rows in the period, summed; undefined without a batch filter or an organisation (the ledger is read per organisation). */
async function batchSpend(deps: ControlPlaneDeps, org: Organization | undefined, batch: string, period: { since: Date; until: Date }): Promise<TagSpend | undefined> {
  if (!org || batch === '') return undefined;
  const [spend] = await deps.db.usage.byTag(org.id, 'batch_id', { tag: { key: 'batch_id', value: batch }, ...period });
  return spend;
}

/** One page of the request log of `org` (undefined = the fleet), newest first. */
export async function loadRequestLog(deps: ControlPlaneDeps, org: Organization | undefined, filters: RequestFilters): Promise<RequestLogView> {
  const { since, until } = periodOf(filters.range);
  const endUser = endUserFilter(filters.user, org);
  const [page, keys, batch] = await Promise.all([
    deps.db.requestLog.list({
      since,
      until,
      ...(org ? { orgId: org.id } : {}),
      ...(filters.key ? { keyId: filters.key } : {}),
      ...(filters.model ? { model: filters.model } : {}),
      ...(endUser ? { endUser } : {}),
      ...(filters.batch ? { batchId: filters.batch } : {}),
      ...(filters.cursor ? { cursor: filters.cursor } : {}),
      limit: 50,
    }),
    deps.db.keys.list(org?.id),
    batchSpend(deps, org, filters.batch, { since, until }),
  ]);
  return { filters, page, keys, endUser, batch };
}

/** The query string of the request log with `changes` applied (empty values dropped). */
export function requestLogHref(filters: RequestFilters, org: Organization | undefined, changes: Partial<RequestFilters> = {}): string {
  const next = { ...filters, cursor: '', ...changes };
  const params = new URLSearchParams();
  params.set('range', next.range);
  if (org) params.set('org', org.id);
  for (const name of ['key', 'model', 'user', 'batch', 'cursor'] as const) if (next[name]) params.set(name, next[name]);
  return `/dashboard/requests?${params.toString()}`;
}
