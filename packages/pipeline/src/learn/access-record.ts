import type { ChatRequest, IntelligenceMode, Usage } from '@svc/core';
import { endUserSubject } from '@svc/memory';

/**
 * What a request's access-log line knows beyond the edge's own fields (request id, caller,
 * route, status, latency): the edge puts an empty record on the Exchange, the pipeline
 * fills it once at the request's ending (answer, stream end or cache hit). Never prompt text
 * or a secret; the end user only as a hash.
 */
export interface AccessRecord {
  /** The `model` the client asked for (an alias, a slug or a bare name). */
  requestedModel?: string;
  /** The model that answered. */
  model?: string;
  provider?: string;
  mode?: IntelligenceMode;
  /** The cache layer that answered (`l0`, `l1`, `semantic`), or false for a provider answer. */
  cache?: string | false;
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
  /** {@link hashEndUser} of the request's end user (`x-svc-user`, else its `user`). */
  endUser?: string;
}

/**
 * The end user as the access log shows it: the memory subject (`u:` and 32 hex characters of
 * SHA-256 over the organisation and the id, `@svc/memory`), so lines of one user correlate within
 * an organisation and with their memory rows, and the identifier itself (often an e-mail) is not
 * written.
 */
export function hashEndUser(orgId: string, user: string): string {
  return endUserSubject(orgId, user);
}

/** Fills `record` (when the edge gave one) with a chat request's ending. */
export function noteChatEnding(
  record: AccessRecord | undefined,
  ending: { orgId: string; endUser?: string | undefined; request: Pick<ChatRequest, 'user' | 'model'>; model: string; provider: string; mode: IntelligenceMode; cache: string | false; usage: Usage | undefined; costUsd: number | undefined },
): void {
  if (!record) return;
  record.requestedModel = ending.request.model;
  record.model = ending.model;
  record.provider = ending.provider;
  record.mode = ending.mode;
  record.cache = ending.cache;
  if (ending.usage) {
    record.promptTokens = ending.usage.promptTokens;
    record.completionTokens = ending.usage.completionTokens;
  }
  if (ending.costUsd !== undefined) record.costUsd = ending.costUsd;
  // The edge's end user (x-svc-user) wins over the body's, as it does for memory; hashed once per
  // request (the memory stage may have noted it already).
  const endUser = ending.endUser ?? ending.request.user;
  if (endUser && record.endUser === undefined) record.endUser = hashEndUser(ending.orgId, endUser);
}

/** The end user's hash, when the memory stage already computed it as its subject (the same SHA-256). */
export function noteEndUserSubject(record: AccessRecord | undefined, subject: string): void {
  if (record) record.endUser = subject;
}

/** The ledger row's end user: the access record's hash when the edge has one, else hashed here; null when the request named none. */
export function ledgerEndUser(exchange: { caller: { org: { id: string } }; endUser?: string | undefined; access?: AccessRecord | undefined }, request: Pick<ChatRequest, 'user'>): string | null {
  const endUser = exchange.endUser ?? request.user;
  if (!endUser) return null;
  return exchange.access?.endUser ?? hashEndUser(exchange.caller.org.id, endUser);
}

/** The tags a request's spend is attributed by: its own metadata, with the gateway's own tags (`exchange.tags`) over them. */
export function ledgerTags(exchange: { tags?: Readonly<Record<string, string>> | undefined }, request?: Pick<ChatRequest, 'metadata'>): Record<string, string> | null {
  const own = request?.metadata;
  if (!exchange.tags) return own ?? null;
  return { ...own, ...exchange.tags };
}
