import { createHash } from 'node:crypto';

/**
 * Where a memory belongs inside its organisation. Organisation ⊃ end user ⊃ conversation:
 * `subject` is the end user (`u:` and a hash of their id) or, for requests that name no end
 * user, the API key (`k:` and the key id); the conversation ranks first within the subject.
 */
export interface MemoryScope {
  orgId: string;
  subject: string;
  conversationId?: string;
}

/** Where a recall looks: one subject, or (`subject` absent) the whole organisation when it opted in. */
export interface RecallScope {
  orgId: string;
  subject?: string;
  conversationId?: string;
}

/**
 * The subject of an end user: `u:` and the first 32 hex digits of SHA-256 over the organisation
 * and the id. Ids are stored hashed, so a leaked table names nobody; the same id in two
 * organisations gives two subjects.
 */
export function endUserSubject(orgId: string, endUser: string): string {
  return `u:${createHash('sha256').update(orgId).update('\u0000').update(endUser).digest('hex').slice(0, 32)}`;
}

/** The subject of requests that name no end user: the API key's own user-less memory. */
export function keySubject(keyId: string): string {
  return `k:${keyId}`;
}

/** The caller's memory scope: the end user's when one is named, else the key's. */
export function memoryScopeOf(caller: { orgId: string; keyId: string; endUser?: string | undefined; conversationId?: string | undefined }): MemoryScope {
  const subject = caller.endUser !== undefined ? endUserSubject(caller.orgId, caller.endUser) : keySubject(caller.keyId);
  return { orgId: caller.orgId, subject, ...(caller.conversationId !== undefined ? { conversationId: caller.conversationId } : {}) };
}
