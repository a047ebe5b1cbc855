import { requireScope } from '@svc/auth';
import { generateImages } from '@svc/pipeline';
import { type DeliveredImage, decodeImageGenerationRequest, encodeImagesResponse } from '@svc/protocol';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { publicBaseUrl } from '../public-url.js';
import { readJson } from '../read-body.js';
import { requestContext } from '../request-context.js';

/**
 * `POST /v1/images/generations` (scope `inference:images`): validated per model, generated
 * through the pipeline's image stage, answered as `{created, data: [{url | b64_json,
 * revised_prompt}], svc_metadata}`. A `url` is the gateway's own
 * `{public base}/v1/images/files/<name>`, served without a key for one hour.
 */
export function registerImageGenerations(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/images/generations', async (c) => {
    requireScope(c.get('caller'), 'inference:images');
    const request = decodeImageGenerationRequest(await readJson(c, deps.maxBodyBytes));
    const answer = await generateImages(deps, request, requestContext(c));
    const files = `${publicBaseUrl(c, deps.publicUrl)}/v1/images/files/`;
    const images = answer.images.map((image): DeliveredImage => {
      const delivered: DeliveredImage = 'file' in image ? { url: files + image.file } : { b64Json: image.b64Json };
      if (image.revisedPrompt !== undefined) delivered.revisedPrompt = image.revisedPrompt;
      return delivered;
    });
    const body = encodeImagesResponse(images, { created: answer.created, ...(answer.usage ? { usage: answer.usage } : {}), svcMetadata: answer.metadata });
    return c.body(JSON.stringify(body), 200, { 'content-type': 'application/json', ...answer.headers });
  });
}
