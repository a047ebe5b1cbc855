import type { RealtimeTurn } from '@svc/core';
import type { Kv } from '@svc/kv';

/** A stored turn of a voice conversation. */
export interface VoiceTurn extends RealtimeTurn {
  /** ISO-8601 time the turn was stored. */
  at: string;
  /** The request (session) id that produced it. */
  requestId: string;
}

/**
 * Voice session context (spec §Intelligence modes, Voice: turn history in `full` mode only),
 * per organisation and conversation id, shared by every instance.
 */
export interface VoiceContextStore {
  /** Adds turns after the stored ones, keeping the newest `maxTurns`. */
  append(orgId: string, conversationId: string, turns: readonly VoiceTurn[]): Promise<void>;
  /** The stored turns, oldest first; empty when none (or expired). */
  turns(orgId: string, conversationId: string): Promise<VoiceTurn[]>;
}

export interface KvVoiceContextSettings {
  kv: Pick<Kv, 'get' | 'set'>;
  /** How long a conversation's turns live after its last write, ms. */
  ttlMs: number;
  /** Turns kept per conversation, newest last. Default 200. */
  maxTurns?: number;
}

/**
 * The voice context in the kv: one JSON list per conversation under
 * `voice:context:<org>:<conversation>`, rewritten on each append with a fresh expiry. A
 * conversation is written by the one session that holds it, so the read-modify-write does not
 * race in practice; two sessions sharing an id at once may lose each other's turns.
 */
export function createKvVoiceContext(settings: KvVoiceContextSettings): VoiceContextStore {
  const maxTurns = settings.maxTurns ?? 200;
  const key = (orgId: string, conversationId: string) => `voice:context:${orgId}:${conversationId}`;
  const read = async (orgId: string, conversationId: string): Promise<VoiceTurn[]> => {
    const raw = await settings.kv.get(key(orgId, conversationId));
    if (raw === null) return [];
    try {
      const parsed: unknown = JSON.parse(raw);
      return Array.isArray(parsed) ? (parsed as VoiceTurn[]) : [];
    } catch {
      return [];
    }
  };
  return {
    turns: read,
    async append(orgId, conversationId, turns) {
      if (turns.length === 0) return;
      const all = [...(await read(orgId, conversationId)), ...turns].slice(-maxTurns);
      await settings.kv.set(key(orgId, conversationId), JSON.stringify(all), { ttlMs: settings.ttlMs });
    },
  };
}
