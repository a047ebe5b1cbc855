import type { FileRecord, FileRepository } from '@svc/db';
import { BatchInputReader, decodeBatchInput } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { fileLines, readWholeFile } from './file-store.js';

/**
 * A measurement, not a check (run with SVC_MEASURE=whole or SVC_MEASURE=lines, one process each):
 * the peak RSS a 40,000-line (~50 MiB) batch input adds while it is read and checked, whole (how
 * batches were created before) or a line at a time as its 1 MiB parts stream (now). The parts sit
 * in a fake store, outside neither figure (they are counted in the baseline).
 *   SVC_MEASURE=whole pnpm vitest run apps/inference/src/files/batch-input-memory.test.ts
 */
const mode = process.env.SVC_MEASURE;

describe.runIf(mode === 'whole' || mode === 'lines')('batch input memory', () => {
  it(`reads the input ${mode === 'whole' ? 'whole' : 'a line at a time'}`, async () => {
    const line = (index: number) => JSON.stringify({ custom_id: `c${index}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(1200) }] } });
    const parts: Uint8Array[] = [];
    let pending: string[] = [];
    let size = 0;
    for (let index = 0; index < 40_000; index++) {
      pending.push(`${line(index)}\n`);
      if (pending.length === 800 || index === 39_999) {
        const bytes = Buffer.from(pending.join(''));
        parts.push(new Uint8Array(bytes));
        size += bytes.byteLength;
        pending = [];
      }
    }
    const store = { part: async (_org: string, _id: string, index: number) => parts[index] } as unknown as FileRepository;
    const file = { id: 'file-m', orgId: 'org', bytes: size } as FileRecord;
    const before = process.memoryUsage().rss;
    const baseline = process.resourceUsage().maxRSS * 1024;
    const started = performance.now();
    let result: ReturnType<typeof decodeBatchInput>;
    if (mode === 'whole') result = decodeBatchInput(new TextDecoder().decode(await readWholeFile(store, file)), '/v1/chat/completions');
    else {
      const reader = new BatchInputReader('/v1/chat/completions');
      let number = 0;
      for await (const text of fileLines(store, file)) if (!reader.push(text, ++number)) break;
      result = reader.result();
    }
    const ms = performance.now() - started;
    const peak = process.resourceUsage().maxRSS * 1024;
    expect('lines' in result && result.lines.length).toBe(40_000);
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    console.log(`${mode}: input ${mib(size)} MiB; peak RSS +${mib(peak - Math.max(baseline, before))} MiB over the process's peak before; ${ms.toFixed(0)} ms`);
  }, 120_000);
});
