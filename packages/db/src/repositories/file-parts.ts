// Plain data without drizzle-orm: packages/db/src/index.ts says why.

/** The size of a file's parts (`FileRepository.writePart`); the last may be shorter. */
export const FILE_PART_BYTES = 1024 * 1024;
