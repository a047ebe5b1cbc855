import { createHmac, hkdfSync } from 'node:crypto';

/** A 256-bit key that seals BYOK credentials, with the id stored next to what it sealed. */
export interface EncryptionKey {
  /**
   * Fingerprint of the key (`k-` + 12 hex; `dev-` for a derived development key), stored as
   * `key_version` with each credential so a rotated key can still open older records. Safe to log.
   */
  readonly id: string;
  readonly key: Buffer;
}

/** Why a configured key was refused; the message names the accepted forms, never the value. */
export const encryptionKeyFormat = 'must be 32 random bytes as 64 hex characters or 44 base64 characters ending in = (`openssl rand -base64 32`)';

const hex64 = /^[0-9a-fA-F]{64}$/;
// Padded base64 only (either alphabet): 43 unpadded characters are too easily an ordinary passphrase.
const base64 = /^[A-Za-z0-9+/]{43}=$|^[A-Za-z0-9_-]{43}=$/;

/** The key's 32 bytes, or undefined when `value` is neither 64 hex characters nor padded base64 of 32 bytes. */
function decode(value: string): Buffer | undefined {
  const text = value.trim();
  if (hex64.test(text)) return Buffer.from(text, 'hex');
  if (base64.test(text)) {
    const bytes = Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
    return bytes.length === 32 ? bytes : undefined;
  }
  return undefined;
}

/** True when `value` is an acceptable key (for environment validation). */
export function isEncryptionKey(value: string): boolean {
  return decode(value) !== undefined;
}

/** Parses a configured key (64 hex characters or padded base64 of 32 bytes); throws with {@link encryptionKeyFormat}. */
export function parseEncryptionKey(value: string): EncryptionKey {
  const key = decode(value);
  if (!key) throw new Error(encryptionKeyFormat);
  return { id: `k-${fingerprint(key)}`, key };
}

/**
 * A development key derived deterministically from `seed` (the data directory or the database
 * location): the same deployment gets the same key across restarts, so no configuration is
 * needed to try BYOK. It protects nothing against anyone who knows the seed: production sets a key.
 */
export function deriveDevEncryptionKey(seed: string): EncryptionKey {
  const key = Buffer.from(hkdfSync('sha256', seed, 'svc byok development key', 'aes-256-gcm v1', 32));
  return { id: `dev-${fingerprint(key)}`, key };
}

function fingerprint(key: Buffer): string {
  return createHmac('sha256', key).update('svc byok key id').digest('hex').slice(0, 12);
}
