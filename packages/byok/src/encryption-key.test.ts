import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveDevEncryptionKey, isEncryptionKey, parseEncryptionKey } from './encryption-key.js';

describe('parseEncryptionKey', () => {
  const bytes = randomBytes(32);

  it('accepts 32 bytes as 64 hex characters or padded base64 (either alphabet), all naming the same key', () => {
    const keys = [bytes.toString('hex'), bytes.toString('hex').toUpperCase(), bytes.toString('base64'), `${bytes.toString('base64url')}=`, ` ${bytes.toString('base64')}\n`].map(parseEncryptionKey);
    for (const key of keys) {
      expect(key.key.equals(bytes)).toBe(true);
      expect(key.id).toBe(keys[0]!.id);
    }
    expect(keys[0]!.id).toMatch(/^k-[0-9a-f]{12}$/);
  });

  it('refuses passphrases, short or long keys and bad characters, without echoing the value', () => {
    const bad = [
      'correct horse battery staple correct horse',
      // 43 base64url-looking characters: a passphrase, not a key (unpadded base64 is refused).
      'not-a-key-but-long-enough-to-pass-old-check',
      bytes.toString('base64url'),
      randomBytes(31).toString('hex'),
      randomBytes(31).toString('base64'),
      randomBytes(33).toString('base64'),
      `${bytes.toString('hex').slice(0, 63)}g`,
      '',
    ];
    for (const value of bad) {
      expect(isEncryptionKey(value), value).toBe(false);
      expect(() => parseEncryptionKey(value)).toThrow(/64 hex characters or 44 base64 characters/);
      if (value) expect(() => parseEncryptionKey(value)).not.toThrow(value);
    }
  });

  it('gives different keys different ids', () => {
    expect(parseEncryptionKey(randomBytes(32).toString('hex')).id).not.toBe(parseEncryptionKey(randomBytes(32).toString('hex')).id);
  });
});

describe('deriveDevEncryptionKey', () => {
  it('derives the same key from the same seed across restarts, another from another seed', () => {
    const a = deriveDevEncryptionKey('/srv/.svc-data');
    expect(deriveDevEncryptionKey('/srv/.svc-data').key.equals(a.key)).toBe(true);
    expect(a.key).toHaveLength(32);
    expect(a.id).toMatch(/^dev-[0-9a-f]{12}$/);
    expect(deriveDevEncryptionKey('/other/.svc-data').id).not.toBe(a.id);
  });
});
