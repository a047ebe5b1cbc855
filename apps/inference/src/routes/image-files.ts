import { notFound } from '@svc/core';
import { defineRoute, publicAccess } from '@svc/openapi';
import * as v from 'valibot';
import type { RouteRegistry } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

export const imageFileRoute = defineRoute({
  method: 'get',
  path: '/v1/images/files/{name}',
  operationId: 'getImageFile',
  summary: 'A generated image',
  description:
    'The `url` of an image answered by `POST /v1/images/generations`. The name (192 random bits) is the capability, as signed image URLs are: no API key is needed, and it is served for one hour after generation, then 404.',
  tags: ['Images'],
  auth: publicAccess,
  params: v.object({ name: v.pipe(v.string(), v.description('The image name from its URL.')) }),
  responses: {
    200: {
      description: "The image's bytes with its content type, cached privately no longer than the image lives.",
      content: { 'image/png': null, 'image/jpeg': null, 'image/webp': null },
      headers: { 'cache-control': '`private, max-age=<seconds left>, immutable`.' },
    },
  },
  errors: [404],
});

/**
 * `GET /v1/images/files/<name>`: a generated image, with no API key. The name (192 random bits)
 * is the capability, as OpenAI's signed image URLs are; it is served until the image expires,
 * one hour after generation, then 404.
 */
export function registerImageFiles(routes: RouteRegistry<AppEnv>, deps: Pick<InferenceDeps, 'images'>): void {
  routes.add(imageFileRoute, async (c) => {
    const image = await deps.images.get(c.req.param('name') ?? '');
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
