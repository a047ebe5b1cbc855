import { type SQL, and, asc, desc, eq, gt, lte, not, or, sql } from 'drizzle-orm';
import { fileChunks, files } from '../schema/files.js';
import { type Drizzle, isUuid } from './drizzle.js';
import { FILE_PART_BYTES } from './file-parts.js';
import { type Page, toPage } from './keyset-page.js';

/** A stored file's metadata (the OpenAI file object's fields); its bytes are read apart. */
export interface FileRecord {
  /** `file-...`. */
  id: string;
  orgId: string;
  filename: string;
  /** `batch`, `batch_output`, `fine-tune`, `assistants`, `user_data`, `vision`, `evals`. */
  purpose: string;
  bytes: number;
  createdAt: Date;
  /** Never served from this instant on; swept by {@link FileRepository.deleteExpired}. */
  expiresAt: Date;
}

/** A file to keep: its metadata and its bytes (`bytes` is their length). */
export interface NewFile extends Omit<FileRecord, 'bytes'> {
  content: Uint8Array;
}

/** A file about to be written part by part ({@link FileRepository.begin}). */
export type FileToWrite = Omit<FileRecord, 'bytes'>;

/** What a file's writer knows once its last part is written: its length, and a purpose or expiry learnt late. */
export interface FileCompletion {
  bytes: number;
  purpose?: string | undefined;
  expiresAt?: Date | undefined;
}

/** An upload still being written is swept this long after it began (its writer died). */
const ABANDONED_UPLOAD_MS = 86_400_000;

/** One page of an organisation's files, newest (`desc`, default) or oldest first. */
export interface FileListOptions {
  purpose?: string | undefined;
  /** The id of the last file of the previous page. */
  after?: string | undefined;
  /** 1..10000. */
  limit: number;
  order: 'asc' | 'desc';
}

/**
 * Each organisation's files; no method returns or deletes another organisation's, nor an expired
 * one, nor one still being written. A file is written part by part (`begin`, `writePart` in
 * order, `complete`, or `discard`): until it is complete nothing serves it.
 */
export interface FileRepository {
  /** Keeps a file whole (begin, its parts, complete); resolves to its metadata. */
  create(file: NewFile): Promise<FileRecord>;
  /** Starts a file no read sees until {@link complete}; swept a day after `createdAt` if never completed. */
  begin(file: FileToWrite): Promise<void>;
  /** Keeps part `part` (0, 1, ...: at most {@link FILE_PART_BYTES}) of a file being written. */
  writePart(orgId: string, id: string, part: number, bytes: Uint8Array): Promise<void>;
  /** Makes the file being written whole and served; undefined when there is none (discarded, swept). */
  complete(orgId: string, id: string, completion: FileCompletion): Promise<FileRecord | undefined>;
  /** Removes a file being written and its parts (a failed upload); a complete file is left. */
  discard(orgId: string, id: string): Promise<void>;
  /** The organisation's file `id` while it has not expired at `now`. */
  get(orgId: string, id: string, now?: Date): Promise<FileRecord | undefined>;
  /**
   * Part `part` of the bytes of the organisation's file `id` while it has not expired at `now`;
   * undefined past the last part (or without such a file). A file written before migration 0023
   * is one part, however long.
   */
  part(orgId: string, id: string, part: number, now?: Date): Promise<Uint8Array | undefined>;
  /** A page of the organisation's live files in `(created_at, id)` order; an unknown `after` is an empty page. */
  list(orgId: string, options: FileListOptions, now?: Date): Promise<Page<FileRecord>>;
  /** Removes the organisation's file `id`; false when there is none (or it had expired). */
  delete(orgId: string, id: string, now?: Date): Promise<boolean>;
  /** Removes every file expired at `now` and every upload begun a day before `now` and never completed (any organisation), with their parts; returns how many. */
  deleteExpired(now?: Date): Promise<number>;
}

const metadata = {
  id: files.id,
  orgId: files.orgId,
  filename: files.filename,
  purpose: files.purpose,
  bytes: files.bytes,
  createdAt: files.createdAt,
  expiresAt: files.expiresAt,
};

/** The organisation's row `id`, complete and not expired at `now`. */
const live = (orgId: string, id: string, now: Date) => and(eq(files.orgId, orgId), eq(files.id, id), gt(files.expiresAt, now), not(files.uploading));

/** The organisation's row `id` while it is being written. */
const uploading = (orgId: string, id: string) => and(eq(files.orgId, orgId), eq(files.id, id), files.uploading);

/** "Comes after the file `after`" in the listing's order (keyset); an unknown `after` matches nothing. */
function afterFile(orgId: string, after: string, order: 'asc' | 'desc'): SQL {
  const anchor = sql`(select ${files.createdAt}, ${files.id} from ${files} where ${files.orgId} = ${orgId} and ${files.id} = ${after})`;
  return order === 'asc' ? sql`(${files.createdAt}, ${files.id}) > ${anchor}` : sql`(${files.createdAt}, ${files.id}) < ${anchor}`;
}

function listCondition(orgId: string, options: FileListOptions, now: Date): SQL | undefined {
  return and(
    eq(files.orgId, orgId),
    gt(files.expiresAt, now),
    not(files.uploading),
    options.purpose === undefined ? undefined : eq(files.purpose, options.purpose),
    options.after === undefined ? undefined : afterFile(orgId, options.after, options.order),
  );
}

/** A file's parts being written: begin, write, complete, discard. */
function createFileWriter(db: Drizzle): Pick<FileRepository, 'begin' | 'writePart' | 'complete' | 'discard'> {
  return {
    async begin(file) {
      await db.insert(files).values({ ...file, bytes: 0, content: null, uploading: true });
    },

    async writePart(orgId, id, part, bytes) {
      await db.insert(fileChunks).values({ fileId: id, orgId, part, bytes });
    },

    async complete(orgId, id, { bytes, purpose, expiresAt }) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db
        .update(files)
        .set({ bytes, uploading: false, ...(purpose === undefined ? {} : { purpose }), ...(expiresAt === undefined ? {} : { expiresAt }) })
        .where(uploading(orgId, id))
        .returning(metadata);
      return row;
    },

    async discard(orgId, id) {
      if (isUuid(orgId)) await db.delete(files).where(uploading(orgId, id));
    },
  };
}

export function createFileRepository(db: Drizzle): FileRepository {
  const writer = createFileWriter(db);
  return {
    ...writer,

    async create({ content, ...file }) {
      await writer.begin(file);
      for (let part = 0; part * FILE_PART_BYTES < content.byteLength; part++) {
        await writer.writePart(file.orgId, file.id, part, content.subarray(part * FILE_PART_BYTES, (part + 1) * FILE_PART_BYTES));
      }
      return (await writer.complete(file.orgId, file.id, { bytes: content.byteLength }))!;
    },

    async get(orgId, id, now = new Date()) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db.select(metadata).from(files).where(live(orgId, id, now)).limit(1);
      return row;
    },

    async part(orgId, id, part, now = new Date()) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db
        .select({ whole: files.content, chunk: fileChunks.bytes })
        .from(files)
        .leftJoin(fileChunks, and(eq(fileChunks.fileId, files.id), eq(fileChunks.orgId, files.orgId), eq(fileChunks.part, part)))
        .where(live(orgId, id, now))
        .limit(1);
      if (row?.whole) return part === 0 ? row.whole : undefined;
      return row?.chunk ?? undefined;
    },

    async list(orgId, options, now = new Date()) {
      if (!isUuid(orgId)) return { data: [], hasMore: false };
      const order = options.order === 'asc' ? [asc(files.createdAt), asc(files.id)] : [desc(files.createdAt), desc(files.id)];
      const rows = await db
        .select(metadata)
        .from(files)
        .where(listCondition(orgId, options, now))
        .orderBy(...order)
        .limit(options.limit + 1);
      return toPage(rows, options.limit);
    },

    async delete(orgId, id, now = new Date()) {
      if (!isUuid(orgId)) return false;
      const rows = await db.delete(files).where(live(orgId, id, now)).returning({ id: files.id });
      return rows.length > 0;
    },

    async deleteExpired(now = new Date()) {
      const abandoned = and(files.uploading, lte(files.createdAt, new Date(now.getTime() - ABANDONED_UPLOAD_MS)));
      const rows = await db
        .delete(files)
        .where(or(lte(files.expiresAt, now), abandoned))
        .returning({ id: files.id });
      return rows.length;
    },
  };
}
