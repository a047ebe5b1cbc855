import { randomBytes } from 'node:crypto';
import type { Kv } from '@svc/kv';

/** How long a generated image's URL is served (spec §Limits: image URL lifetime 1 hour). */
export const IMAGE_URL_TTL_MS = 3_600_000;

export interface ImageStoreSettings {
  /** The shared kv: Redis when configured, so any instance serves an image another one stored. */
  kv: Pick<Kv, 'get' | 'set' | 'ttl'>;
  /** Lifetime of a stored image in ms; default {@link IMAGE_URL_TTL_MS}. */
  ttlMs?: number;
  /** Prefix of the kv keys; default `img:`. */
  keyPrefix?: string;
}

/** A stored image, read back. */
export interface StoredImage {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** Ms until it expires (at least 1). */
  ttlMs: number;
}

interface FileType {
  extension: string;
  contentType: string;
}

const png: FileType = { extension: 'png', contentType: 'image/png' };
const jpeg: FileType = { extension: 'jpeg', contentType: 'image/jpeg' };
const webp: FileType = { extension: 'webp', contentType: 'image/webp' };
const unknown: FileType = { extension: 'bin', contentType: 'application/octet-stream' };

/** What the file's first bytes say it is (the upstream sends no type with base64). */
function sniff(b64: string): FileType {
  // 16 base64 characters are the first 12 bytes: enough for every signature below.
  const head = Buffer.from(b64.slice(0, 16), 'base64');
  if (head[0] === 0x89 && head.toString('latin1', 1, 4) === 'PNG') return png;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return jpeg;
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return webp;
  return unknown;
}

/** `<id>.<extension>`: 32 base64url characters (192 random bits) and the file type. */
const fileName = /^([A-Za-z0-9_-]{32})\.(png|jpeg|webp|bin)$/;

/**
 * Generated images behind unguessable names, for the URLs `POST /v1/images/generations`
 * answers with: each image's base64 is kept in the kv as the upstream sent it, under a random
 * 192-bit id, and expires with the kv entry. The name is a capability: whoever holds it may read
 * the image, as with OpenAI's signed blob URLs. The in-process kv holds images in memory until
 * they expire (its sweep removes them); Redis holds them for every instance.
 */
export class ImageStore {
  readonly ttlMs: number;
  readonly #kv: ImageStoreSettings['kv'];
  readonly #prefix: string;

  constructor(settings: ImageStoreSettings) {
    this.#kv = settings.kv;
    this.ttlMs = settings.ttlMs ?? IMAGE_URL_TTL_MS;
    this.#prefix = settings.keyPrefix ?? 'img:';
  }

  /** Stores one image (base64 of its file) and resolves with its file name, `<id>.<extension>`. */
  async put(b64: string): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    await this.#kv.set(this.#prefix + id, b64, { ttlMs: this.ttlMs });
    return `${id}.${sniff(b64).extension}`;
  }

  /** The image a file name names; undefined when the name is malformed, unknown or expired. */
  async get(name: string): Promise<StoredImage | undefined> {
    const match = fileName.exec(name);
    if (!match) return undefined;
    const key = this.#prefix + match[1];
    const [b64, ttlMs] = await Promise.all([this.#kv.get(key), this.#kv.ttl(key)]);
    if (b64 === null || ttlMs === -2) return undefined;
    const type = sniff(b64);
    if (type.extension !== match[2]) return undefined;
    return { bytes: Buffer.from(b64, 'base64'), contentType: type.contentType, ttlMs: Math.max(1, ttlMs) };
  }
}
