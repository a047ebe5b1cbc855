import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
// Only its types here: tar-stream itself is imported by the first backup or restore (the module
// loader keeps it), so a gateway that never archives does not hold it.
import type tar from 'tar-stream';

/** One file of an archive. */
export interface ArchiveEntry {
  name: string;
  data: Uint8Array;
}

function addEntry(pack: tar.Pack, entry: ArchiveEntry): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name: entry.name, size: entry.data.byteLength }, Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength), (error) =>
      error ? reject(error) : resolve(),
    );
  });
}

/**
 * Writes `entries` as a gzip-compressed tar file at `path` (readable with `tar tzf`). The file
 * takes its name only once complete: an interrupted write leaves no half archive under it.
 */
export async function writeArchive(path: string, entries: AsyncIterable<ArchiveEntry>): Promise<void> {
  const partial = `${path}.partial`;
  const pack = (await import('tar-stream')).default.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(partial));
  try {
    for await (const entry of entries) await addEntry(pack, entry);
    pack.finalize();
    await written;
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
  await rename(partial, path);
}

/** The files of an archive written by {@link writeArchive}, in order, each read whole. */
export async function* readArchive(path: string): AsyncGenerator<ArchiveEntry> {
  const extract = (await import('tar-stream')).default.extract();
  const reading = pipeline(createReadStream(path), createGunzip(), extract);
  // A failed read ends the entries early; the loop below rethrows it.
  reading.catch(() => {});
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const part of entry) parts.push(part);
    yield { name: entry.header.name, data: Buffer.concat(parts) };
  }
  await reading;
}
