import { randomUUID } from 'node:crypto';
import { type Kv, createMemoryKv, createRedisKv } from '@svc/kv';
import { redisReachable, removeRedisKeys, safeRedisHost } from '@svc/kv/test';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE_URL_TTL_MS, ImageStore } from './image-store.js';

// A 1x1 PNG, and the first bytes of a JPEG and a WebP file.
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP438AAAAQBAYDFKhhdAAAAAElFTkSuQmCC';
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]).toString('base64');
const webp = Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1').toString('base64');

/** The store against one kv; `advance` moves its clock (or waits, for a real backend). */
function suite(name: string, create: () => Promise<{ kv: Kv; advance(ms: number): Promise<void> }>, ttlMs: number) {
  describe(`ImageStore on the ${name} kv`, () => {
    it('stores an image under an unguessable name and reads back its bytes and content type', async () => {
      const { kv } = await create();
      const store = new ImageStore({ kv, ttlMs });
      const name = await store.put(png);
      expect(name).toMatch(/^[A-Za-z0-9_-]{32}\.png$/);
      const image = await store.get(name);
      expect(image?.contentType).toBe('image/png');
      expect(Buffer.from(image!.bytes).equals(Buffer.from(png, 'base64'))).toBe(true);
      expect(image!.ttlMs).toBeGreaterThan(0);
      expect(image!.ttlMs).toBeLessThanOrEqual(ttlMs);
      const names = await Promise.all([store.put(png), store.put(png)]);
      expect(new Set([name, ...names]).size).toBe(3);
    });

    it('names JPEG and WebP files by what their bytes are', async () => {
      const store = new ImageStore({ kv: (await create()).kv, ttlMs });
      expect(await store.put(jpeg)).toMatch(/\.jpeg$/);
      const name = await store.put(webp);
      expect(name).toMatch(/\.webp$/);
      expect((await store.get(name))?.contentType).toBe('image/webp');
    });

    it('answers nothing for an unknown, malformed or mistyped name, and once the image expired', async () => {
      const { kv, advance } = await create();
      const store = new ImageStore({ kv, ttlMs });
      const name = await store.put(png);
      expect(await store.get(name.replace('.png', '.webp'))).toBeUndefined();
      expect(await store.get(`${'A'.repeat(32)}.png`)).toBeUndefined();
      expect(await store.get('../../etc/passwd')).toBeUndefined();
      expect(await store.get(name.slice(1))).toBeUndefined();
      await advance(ttlMs + 50);
      expect(await store.get(name)).toBeUndefined();
    });
  });
}

suite(
  'in-process',
  async () => {
    let now = Date.now();
    return {
      kv: createMemoryKv({ now: () => now }),
      advance: async (ms) => {
        now += ms;
      },
    };
  },
  IMAGE_URL_TTL_MS,
);

const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl !== undefined && redisUrl !== '') {
  const prefix = `svc-test:images:${randomUUID()}:`;
  if (await redisReachable(redisUrl)) {
    const opened: Kv[] = [];
    suite(
      'Redis',
      async () => {
        const kv = createRedisKv({ url: redisUrl, keyPrefix: prefix });
        opened.push(kv);
        return { kv, advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
      },
      300,
    );
    afterAll(async () => {
      await Promise.all(opened.map((kv) => kv.close()));
      await removeRedisKeys(redisUrl, prefix);
    });
  } else if (process.env.CI === 'true') {
    it('reaches the Redis at TEST_REDIS_URL (required in CI)', () => {
      expect.fail(`TEST_REDIS_URL (${safeRedisHost(redisUrl)}) is set but does not answer PING`);
    });
  }
}
