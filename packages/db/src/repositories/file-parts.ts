// Plain data, without drizzle-orm: `@svc/db`'s index re-exports it, and the gateway's main thread
// (which never queries on the embedded store) loads the index only (docs/operations.md "Memory budget").

/** The size of a file's parts (`FileRepository.writePart`); the last may be shorter. */
export const FILE_PART_BYTES = 1024 * 1024;
