import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { generateImages } from '@svc/pipeline';
import { type DeliveredImage, decodeImageGenerationRequest, encodeImagesResponse, imageGenerationRequestSchema } from '@svc/protocol';
import { type RouteRegistry, readJson } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { publicBaseUrl } from '../public-url.js';
import { exchangeOf } from '../request-context.js';
import { answerHeaders, callErrors } from './answer-headers.js';

export const createImageRoute = defineRoute({
  method: 'post',
  path: '/v1/images/generations',
  operationId: 'createImage',
  summary: 'Create images from a prompt',
  description:
    "Sizes, qualities, styles and `n` are checked against the model's own rules (DALL·E 3 when no model is named); `stream: true` is refused. A `url` answer is the gateway's own `/v1/images/files/<name>`, served without a key for one hour.",
  tags: ['Images'],
  auth: bearer('inference:images'),
  body: { schema: imageGenerationRequestSchema, name: 'CreateImageRequest' },
  responses: { 200: jsonResponse('`{created, data: [{url | b64_json, revised_prompt?}], usage?, svc_metadata}`.', answerHeaders) },
  errors: callErrors,
});

/**
 * `POST /v1/images/generations` (scope `inference:images`): validated per model, generated
 * through the pipeline's image stage, answered as `{created, data: [{url | b64_json,
 * revised_prompt}], svc_metadata}`. A `url` is the gateway's own
 * `{public base}/v1/images/files/<name>`, served without a key for one hour.
 */
export function registerImageGenerations(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  routes.add(createImageRoute, async (c) => {
    const request = decodeImageGenerationRequest(await readJson(c, deps.maxBodyBytes));
    const answer = await generateImages(deps, request, exchangeOf(c));
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
