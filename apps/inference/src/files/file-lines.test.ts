import type { FileRecord, FileRepository } from '@svc/db';
import { describe, expect, it } from 'vitest';
import { fileLines } from './file-store.js';

/** A store holding one file in the given parts. */
function storeOf(parts: Uint8Array[]): { store: FileRepository; file: FileRecord } {
  const store = { part: async (_org: string, _id: string, index: number) => parts[index] } as unknown as FileRepository;
  const file = { id: 'file-1', orgId: 'org', bytes: parts.reduce((sum, part) => sum + part.byteLength, 0) } as FileRecord;
  return { store, file };
}

async function linesOf(parts: Uint8Array[]): Promise<string[]> {
  const { store, file } = storeOf(parts);
  const out: string[] = [];
  for await (const line of fileLines(store, file)) out.push(line);
  return out;
}

describe('fileLines', () => {
  it('splits as the whole text splits, across parts that cut a line and a multi-byte character', async () => {
    const text = '\uFEFF{"a":"é"}\n\n{"b":"日本"}\r\nlast';
    const bytes = new TextEncoder().encode(text);
    const whole = new TextDecoder().decode(bytes).split('\n');
    for (const cut of [1, 3, 9, 10, 17, 20, bytes.length - 1]) {
      expect(await linesOf([bytes.slice(0, cut), bytes.slice(cut)])).toEqual(whole);
    }
    // One byte a part.
    expect(await linesOf([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(whole);
    expect(await linesOf([new TextEncoder().encode('x\n')])).toEqual(['x', '']);
  });

  it('throws when the parts end short of the file (deleted while read)', async () => {
    const { store, file } = storeOf([new TextEncoder().encode('a\nb')]);
    const read = async () => {
      for await (const _ of fileLines(store, { ...file, bytes: 10 })) void _;
    };
    await expect(read()).rejects.toThrow(/ended after 3 of its 10 bytes/);
  });
});
