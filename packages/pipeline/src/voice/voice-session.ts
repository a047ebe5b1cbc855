import type { Kv } from '@svc/kv';

/** One turn of a voice conversation, as the chat step receives it. */
export interface VoiceTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** Voice session context (intelligence mode `full`): each conversation's turn history, shared by every instance. */
export interface VoiceSessionStore {
  /** The conversation's turns, oldest first; empty when there are none or the store is down. */
  history(orgId: string, conversationId: string): Promise<VoiceTurn[]>;
  /** Appends turns, keeping the newest `maxTurns`; resolves when stored (a store failure is reported, never thrown). */
  append(orgId: string, conversationId: string, turns: readonly VoiceTurn[]): Promise<void>;
}

export interface KvVoiceSessionSettings {
  kv: Kv;
  /** How long a conversation is kept after its last turn. Default 24 h. */
  ttlMs?: number;
  /** Turns kept per conversation (user and assistant each count). Default 20. */
  maxTurns?: number;
  onError?: (error: unknown) => void;
}

function isTurn(value: unknown): value is VoiceTurn {
  return typeof value === 'object' && value !== null && 'role' in value && 'content' in value
    && (value.role === 'user' || value.role === 'assistant') && typeof value.content === 'string';
}

/**
 * Voice sessions in the kv under `svc:voice:<org>:<conversation>`, scoped per organisation, as one
 * JSON list with a sliding expiry. Two turns of one conversation at the same instant may lose one
 * of them (read, then write); a spoken conversation takes turns one at a time.
 */
export function createKvVoiceSessionStore(settings: KvVoiceSessionSettings): VoiceSessionStore {
  const { kv } = settings;
  const ttlMs = settings.ttlMs ?? 86_400_000;
  const maxTurns = settings.maxTurns ?? 20;
  const onError = settings.onError ?? (() => {});
  const keyOf = (orgId: string, conversationId: string) => `svc:voice:${orgId}:${conversationId}`;
  async function read(key: string): Promise<VoiceTurn[]> {
    const raw = await kv.get(key);
    if (raw === null) return [];
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isTurn) : [];
  }
  return {
    async history(orgId, conversationId) {
      try {
        return await read(keyOf(orgId, conversationId));
      } catch (error) {
        onError(error);
        return [];
      }
    },
    async append(orgId, conversationId, turns) {
      const key = keyOf(orgId, conversationId);
      try {
        const kept = [...(await read(key)), ...turns].slice(-maxTurns);
        await kv.set(key, JSON.stringify(kept), { ttlMs });
      } catch (error) {
        onError(error);
      }
    },
  };
}
