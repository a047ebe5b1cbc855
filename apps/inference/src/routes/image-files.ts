import { notFound } from '@svc/core';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

/**
 * `GET /v1/images/files/<name>`: a generated image, with no API key. The name (192 random bits)
 * is the capability, as OpenAI's signed image URLs are; it is served until the image expires,
 * one hour after generation, then 404. Register before the `/v1/*` authentication.
 */
export function registerImageFiles(app: Hono<AppEnv>, deps: Pick<InferenceDeps, 'images'>): void {
  app.get('/v1/images/files/:name', async (c) => {
    const image = await deps.images.get(c.req.param('name'));
    if (!image) throw notFound('This image does not exist or its URL has expired (image URLs are served for one hour).');
    return c.body(image.bytes, 200, {
      'content-type': image.contentType,
      'content-length': String(image.bytes.byteLength),
      // Private: the URL is a capability; cached no longer than the image lives.
      'cache-control': `private, max-age=${Math.floor(image.ttlMs / 1000)}, immutable`,
      'x-content-type-options': 'nosniff',
    });
  });
}
