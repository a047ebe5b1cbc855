import { readFileSync } from 'node:fs';
import { sseChunks } from './fixture-server.js';

/** Loads the recorded wire fixtures of one folder, e.g. `fixtureFiles(new URL('./__fixtures__/', import.meta.url))`. */
export function fixtureFiles(dir: URL): { json(name: string): unknown; chunks(name: string): string[] } {
  const read = (file: string) => readFileSync(new URL(file, dir), 'utf8');
  return {
    /** `<name>.json`, parsed. */
    json: (name) => JSON.parse(read(`${name}.json`)),
    /** `<name>.chunks.txt`, split into SSE writes. */
    chunks: (name) => sseChunks(read(`${name}.chunks.txt`)),
  };
}
