import { type SQL, and, asc, desc, eq, gt, lte, sql } from 'drizzle-orm';
import { files } from '../schema/files.js';
import { type Drizzle, isUuid } from './drizzle.js';
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

/** One page of an organisation's files, newest (`desc`, default) or oldest first. */
export interface FileListOptions {
  purpose?: string | undefined;
  /** The id of the last file of the previous page. */
  after?: string | undefined;
  /** 1..10000. */
  limit: number;
  order: 'asc' | 'desc';
}

/** Each organisation's files; no method returns or deletes another organisation's, nor an expired one. */
export interface FileRepository {
  /** Keeps a file; resolves to its metadata. */
  create(file: NewFile): Promise<FileRecord>;
  /** The organisation's file `id` while it has not expired at `now`. */
  get(orgId: string, id: string, now?: Date): Promise<FileRecord | undefined>;
  /** The bytes of the organisation's file `id` while it has not expired at `now`. */
  content(orgId: string, id: string, now?: Date): Promise<Uint8Array | undefined>;
  /** A page of the organisation's live files in `(created_at, id)` order; an unknown `after` is an empty page. */
  list(orgId: string, options: FileListOptions, now?: Date): Promise<Page<FileRecord>>;
  /** Removes the organisation's file `id`; false when there is none (or it had expired). */
  delete(orgId: string, id: string, now?: Date): Promise<boolean>;
  /** Removes every file expired at `now` (any organisation); returns how many. */
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

/** The organisation's live row `id`. */
const live = (orgId: string, id: string, now: Date) => and(eq(files.orgId, orgId), eq(files.id, id), gt(files.expiresAt, now));

/** "Comes after the file `after`" in the listing's order (keyset); an unknown `after` matches nothing. */
function afterFile(orgId: string, after: string, order: 'asc' | 'desc'): SQL {
  const anchor = sql`(select ${files.createdAt}, ${files.id} from ${files} where ${files.orgId} = ${orgId} and ${files.id} = ${after})`;
  return order === 'asc' ? sql`(${files.createdAt}, ${files.id}) > ${anchor}` : sql`(${files.createdAt}, ${files.id}) < ${anchor}`;
}

function listCondition(orgId: string, options: FileListOptions, now: Date): SQL | undefined {
  return and(
    eq(files.orgId, orgId),
    gt(files.expiresAt, now),
    options.purpose === undefined ? undefined : eq(files.purpose, options.purpose),
    options.after === undefined ? undefined : afterFile(orgId, options.after, options.order),
  );
}

export function createFileRepository(db: Drizzle): FileRepository {
  return {
    async create(file) {
      const [row] = await db
        .insert(files)
        .values({ ...file, bytes: file.content.byteLength })
        .returning(metadata);
      return row!;
    },

    async get(orgId, id, now = new Date()) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db.select(metadata).from(files).where(live(orgId, id, now)).limit(1);
      return row;
    },

    async content(orgId, id, now = new Date()) {
      if (!isUuid(orgId)) return undefined;
      const [row] = await db.select({ content: files.content }).from(files).where(live(orgId, id, now)).limit(1);
      return row?.content;
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
      const rows = await db.delete(files).where(lte(files.expiresAt, now)).returning({ id: files.id });
      return rows.length;
    },
  };
}
