import { describe, expect, it } from 'vitest';
import { ROW_BATCH, RowBatches, encodeRow } from './row-intake.js';

/** Two tables that keep the request ids of each statement, and fail while `down()`. */
function tables(down = () => false) {
  const statements: { table: string; ids: string[] }[] = [];
  const insert = (table: string) => async (rows: readonly { requestId: string }[]) => {
    if (down()) throw new Error('store down');
    statements.push({ table, ids: rows.map((row) => row.requestId) });
    return rows.length;
  };
  return { statements, tables: { usage: { insertMany: insert('usage') }, decisions: { insertMany: insert('decisions') } } };
}

const row = (requestId: string) => encodeRow({ requestId, createdAt: new Date('2026-12-05T00:00:00Z') });
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('RowBatches, the store side of the ledger intake', () => {
  it('writes a full batch on its own and the rest at settle, dates revived', async () => {
    const { statements, tables: t } = tables();
    const batches = new RowBatches(t);
    for (let i = 0; i < ROW_BATCH + 2; i++) batches.hand('usage', row(`u${i}`));
    batches.hand('decision', row('d0'));
    await settled();
    expect(statements.map((s) => [s.table, s.ids.length])).toEqual([['usage', ROW_BATCH]]);
    await batches.settle();
    expect(statements.slice(1).map((s) => [s.table, s.ids])).toEqual([
      ['usage', [`u${ROW_BATCH}`, `u${ROW_BATCH + 1}`]],
      ['decisions', ['d0']],
    ]);
    expect(batches.waiting()).toBe(0);
  });

  it('keeps a failed batch, writes none on its own until the next settle, and writes it then', async () => {
    let down = true;
    const { statements, tables: t } = tables(() => down);
    const batches = new RowBatches(t);
    batches.hand('usage', row('a'));
    await expect(batches.settle()).rejects.toThrow('store down');
    for (let i = 0; i < ROW_BATCH; i++) batches.hand('usage', row(`b${i}`));
    await settled();
    expect(batches.waiting()).toBe(ROW_BATCH + 1);
    down = false;
    await batches.settle();
    expect(statements.flatMap((s) => s.ids)[0]).toBe('a');
    expect(statements.flatMap((s) => s.ids)).toHaveLength(ROW_BATCH + 1);
  });
});
