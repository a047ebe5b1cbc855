import { requireScope } from '@svc/auth';
import { moderate } from '@svc/pipeline';
import { decodeModerationsRequest } from '@svc/protocol';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readJson } from '../read-body.js';
import { requestContext } from '../request-context.js';

/** `POST /v1/moderations`: the provider's verdicts in the OpenAI shape (`id`, `model`, `results`). */
export function registerModerations(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.post('/v1/moderations', async (c) => {
    requireScope(c.get('caller'), 'inference:moderations');
    const request = decodeModerationsRequest(await readJson(c, deps.maxBodyBytes));
    const { moderation, headers } = await moderate(deps, request, requestContext(c));
    return c.body(JSON.stringify(moderation), 200, { 'content-type': 'application/json', ...headers });
  });
}
