import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptionKey } from './encryption-key.js';

/** What a sealed credential belongs to: bound into the ciphertext, so a row copied elsewhere does not open. */
export interface CredentialOwner {
  orgId: string;
  provider: string;
}

/** A credential sealed with AES-256-GCM, as stored. */
export interface SealedCredential {
  ciphertext: Uint8Array;
  /** 12 random bytes, new for every seal. */
  iv: Uint8Array;
  /** 16-byte GCM authentication tag. */
  tag: Uint8Array;
  /** Id of the key that sealed it ({@link EncryptionKey.id}). */
  keyVersion: string;
}

/** A credential that cannot be opened: its key is not configured, or the record was altered. The message holds no secret. */
export class CredentialOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialOpenError';
  }
}

const ivBytes = 12;
const tagBytes = 16;

/**
 * Seals and opens provider credentials with AES-256-GCM: a random 12-byte IV per secret, the
 * authentication tag stored, the owner (org + provider) as additional authenticated data. New
 * seals use `current`; `previous` keys only open older records, which is how a key is rotated.
 */
export class CredentialCipher {
  private readonly current: EncryptionKey;
  private readonly keys: ReadonlyMap<string, Buffer>;

  constructor(current: EncryptionKey, previous: readonly EncryptionKey[] = []) {
    this.current = current;
    this.keys = new Map([...previous, current].map((entry) => [entry.id, entry.key]));
  }

  /** Id of the key new credentials are sealed with. */
  get keyVersion(): string {
    return this.current.id;
  }

  seal(secret: string, owner: CredentialOwner): SealedCredential {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv, { authTagLength: tagBytes });
    cipher.setAAD(associatedData(owner));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return { ciphertext, iv, tag: cipher.getAuthTag(), keyVersion: this.current.id };
  }

  /** The secret in clear; throws CredentialOpenError when it cannot be opened. */
  open(sealed: SealedCredential, owner: CredentialOwner): string {
    const key = this.keys.get(sealed.keyVersion);
    if (!key) {
      throw new CredentialOpenError(
        `${owner.provider} credential of organisation ${owner.orgId} was sealed with encryption key ${sealed.keyVersion}, but the configured key is ${this.current.id}: restore SVC_ENCRYPTION_KEY or store the credential again`,
      );
    }
    if (sealed.iv.length !== ivBytes || sealed.tag.length !== tagBytes) {
      throw new CredentialOpenError(`${owner.provider} credential of organisation ${owner.orgId} is malformed (IV or tag length)`);
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv, { authTagLength: tagBytes });
      decipher.setAAD(associatedData(owner));
      decipher.setAuthTag(sealed.tag);
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new CredentialOpenError(`${owner.provider} credential of organisation ${owner.orgId} failed authentication: it was altered or belongs to another record`);
    }
  }
}

function associatedData(owner: CredentialOwner): Buffer {
  return Buffer.from(`svc-byok\0${owner.orgId}\0${owner.provider}`, 'utf8');
}
