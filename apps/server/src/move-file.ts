import { copyFile, rename, rm } from 'node:fs/promises';

/** Moves `from` to `to`, across file systems too (rename, else copy and remove). */
export async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}
