import { randomBytes } from 'node:crypto';
import { createLogger } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import { byokEncryptionKey } from './byok.js';
import { ConfigError, parseEnv } from './env.js';

/** A logger whose JSON lines are kept. */
function capture() {
  const lines: { level: string; msg: string }[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

describe('SVC_ENCRYPTION_KEY', () => {
  const bytes = randomBytes(32);

  it('accepts 32 bytes as hex or base64 and seals with that key, silently', () => {
    const { logger, lines } = capture();
    const fromHex = byokEncryptionKey(parseEnv({ SVC_ENCRYPTION_KEY: bytes.toString('hex') }), logger);
    const fromBase64 = byokEncryptionKey(parseEnv({ SVC_ENCRYPTION_KEY: bytes.toString('base64') }), logger);
    expect(fromHex.key.equals(bytes)).toBe(true);
    expect(fromBase64.id).toBe(fromHex.id);
    expect(lines).toEqual([]);
  });

  it('fails at start with one line naming the variable, never echoing the value', () => {
    for (const value of ['a passphrase that is long enough to pass min', randomBytes(16).toString('hex'), '']) {
      let error: unknown;
      try {
        parseEnv({ SVC_ENCRYPTION_KEY: value });
      } catch (thrown) {
        error = thrown;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe('SVC_ENCRYPTION_KEY');
      expect((error as ConfigError).message).toMatch(/^SVC_ENCRYPTION_KEY: .*64 hex characters or 44 base64 characters/);
      expect((error as ConfigError).message).not.toContain('\n');
      if (value) expect((error as ConfigError).message).not.toContain(value);
    }
  });

  it('derives a development key per data location when absent, with a loud warning that names the variable', () => {
    const { logger, lines } = capture();
    const a = byokEncryptionKey(parseEnv({ SVC_DATA_DIR: '/srv/a/.svc-data' }), logger);
    expect(byokEncryptionKey(parseEnv({ SVC_DATA_DIR: '/srv/a/.svc-data' }), logger).id).toBe(a.id);
    expect(byokEncryptionKey(parseEnv({ SVC_DATA_DIR: '/srv/b/.svc-data' }), logger).id).not.toBe(a.id);
    expect(a.id).toMatch(/^dev-/);
    expect(lines[0]).toMatchObject({ level: 'warn' });
    expect(lines[0]?.msg).toMatch(/^\*\*\* SVC_ENCRYPTION_KEY is not set/);
  });

  it('derives the same development key for a database whatever its password, and never logs the password', () => {
    const { logger, lines } = capture();
    const one = byokEncryptionKey(parseEnv({ DATABASE_URL: 'postgres://svc:first-secret@db.internal:5432/svc' }), logger);
    const two = byokEncryptionKey(parseEnv({ DATABASE_URL: 'postgres://svc:second-secret@db.internal:5432/svc' }), logger);
    expect(two.id).toBe(one.id);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});
