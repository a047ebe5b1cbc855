import { describe, expect, it } from 'vitest';
import { openPglite, PGLITE_SETTINGS, pgliteStartParams } from './pglite-start.js';

describe('the embedded store start settings', () => {
  it("appends each setting as -c after PGlite's own start parameters", () => {
    const params = pgliteStartParams();
    expect(params.slice(0, 2)).toEqual(['--single', '-F']);
    expect(params.slice(-2 * PGLITE_SETTINGS.length)).toEqual(PGLITE_SETTINGS.flatMap((s) => ['-c', s]));
  });

  it('opens with 16 MB of shared buffers instead of 128 MB, and 16 MB for index builds instead of 64 MB', async () => {
    const db = await openPglite('memory://');
    try {
      const { rows } = await db.query<{ shared_buffers: string }>('show shared_buffers');
      expect(rows[0]?.shared_buffers).toBe('16MB');
      const maintenance = await db.query<{ maintenance_work_mem: string }>('show maintenance_work_mem');
      expect(maintenance.rows[0]?.maintenance_work_mem).toBe('16MB');
    } finally {
      await db.close();
    }
  }, 60_000);
});

