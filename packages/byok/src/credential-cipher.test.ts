import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialCipher, CredentialOpenError } from './credential-cipher.js';
import { deriveDevEncryptionKey, parseEncryptionKey } from './encryption-key.js';

const key = parseEncryptionKey(randomBytes(32).toString('base64'));
const owner = { orgId: '6f1c2f7e-0000-4000-8000-000000000001', provider: 'openai' };
const secret = 'sk-proj-Abc123-very-secret-value-wxyz';

describe('CredentialCipher', () => {
  it('seals with AES-256-GCM (12-byte random IV, 16-byte tag, key id) and opens what it sealed', () => {
    const cipher = new CredentialCipher(key);
    const sealed = cipher.seal(secret, owner);
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.tag).toHaveLength(16);
    expect(sealed.keyVersion).toBe(key.id);
    expect(Buffer.from(sealed.ciphertext).includes(Buffer.from('very-secret'))).toBe(false);
    expect(cipher.open(sealed, owner)).toBe(secret);
  });

  it('uses a fresh IV for every seal, so equal secrets never look equal', () => {
    const cipher = new CredentialCipher(key);
    const [a, b] = [cipher.seal(secret, owner), cipher.seal(secret, owner)];
    expect(Buffer.from(a.iv).equals(Buffer.from(b.iv))).toBe(false);
    expect(Buffer.from(a.ciphertext).equals(Buffer.from(b.ciphertext))).toBe(false);
  });

  it('refuses a record moved to another organisation or provider, or altered', () => {
    const cipher = new CredentialCipher(key);
    const sealed = cipher.seal(secret, owner);
    expect(() => cipher.open(sealed, { ...owner, orgId: '6f1c2f7e-0000-4000-8000-000000000002' })).toThrow(CredentialOpenError);
    expect(() => cipher.open(sealed, { ...owner, provider: 'groq' })).toThrow(CredentialOpenError);
    const flipped = Uint8Array.from(sealed.ciphertext);
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.open({ ...sealed, ciphertext: flipped }, owner)).toThrow(/failed authentication/);
    expect(() => cipher.open({ ...sealed, tag: randomBytes(16) }, owner)).toThrow(/failed authentication/);
    expect(() => cipher.open({ ...sealed, tag: sealed.tag.slice(0, 4) }, owner)).toThrow(/malformed/);
  });

  it('opens records of a previous key after rotation and seals new ones with the current key', () => {
    const old = deriveDevEncryptionKey('memory://');
    const sealedBefore = new CredentialCipher(old).seal(secret, owner);
    const rotated = new CredentialCipher(key, [old]);
    expect(rotated.open(sealedBefore, owner)).toBe(secret);
    expect(rotated.seal(secret, owner).keyVersion).toBe(key.id);
  });

  it('names both key ids, never the secret, when the sealing key is not configured', () => {
    const sealed = new CredentialCipher(deriveDevEncryptionKey('memory://')).seal(secret, owner);
    const error = (() => {
      try {
        new CredentialCipher(key).open(sealed, owner);
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(CredentialOpenError);
    expect(error?.message).toContain(sealed.keyVersion);
    expect(error?.message).toContain(key.id);
    expect(error?.message).not.toContain(secret);
  });
});
