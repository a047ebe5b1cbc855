import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPglite, PGLITE_SETTINGS, pgliteStartParams } from './pglite-start.js';

describe('the embedded store start settings', () => {
  it("appends each setting as -c after PGlite's own start parameters", () => {
    const params = pgliteStartParams();
    expect(params.slice(0, 2)).toEqual(['--single', '-F']);
    expect(params.slice(-2 * PGLITE_SETTINGS.length)).toEqual(PGLITE_SETTINGS.flatMap((s) => ['-c', s]));
  });

  it('opens with 8 MB of shared buffers instead of 128 MB, 16 MB for index builds instead of 64 MB and 2 MB for a query instead of 4 MB', async () => {
    const db = await openPglite('memory://');
    try {
      const { rows } = await db.query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows[0]?.shared_buffers).toBe('8MB');
      const maintenance = await db.query<{ maintenance_work_mem: string }>('show maintenance_work_mem');
      expect(maintenance.rows[0]?.maintenance_work_mem).toBe('16MB');
      const work = await db.query<{ work_mem: string }>('show work_mem');
      expect(work.rows[0]?.work_mem).toBe('2MB');
    } finally {
      await db.close();
    }
  }, 60_000);

  it('reads and writes bytea as PostgreSQL does, any length, through its hex codec', async () => {
    const db = await openPglite('memory://');
    try {
      const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 31) % 256);
      const { rows } = await db.query<{ same: Uint8Array; length: number; md5: string }>('select $1::bytea as same, length($1::bytea) as length, md5($1::bytea) as md5', [bytes]);
      expect(rows[0]?.length).toBe(bytes.byteLength);
      expect(rows[0]?.md5).toBe(createHash('md5').update(bytes).digest('hex'));
      expect(rows[0]?.same).toEqual(bytes);
      const literal = await db.query<{ value: Uint8Array }>("select '\\x00ff10'::bytea as value");
      expect(literal.rows[0]?.value).toEqual(new Uint8Array([0, 255, 16]));
      await expect(db.query('select $1::bytea', ['not bytes'])).rejects.toThrow();
    } finally {
      await db.close();
    }
  }, 60_000);
});
