import { defineRoute, jsonResponse, publicAccess } from '@svc/openapi';
import type { Env } from 'hono';
import type { RouteRegistry } from './route-registry.js';

export const openApiRoute = defineRoute({
  method: 'get',
  path: '/openapi.json',
  operationId: 'getOpenApiDescription',
  summary: "This API's OpenAPI 3.1 description",
  description: 'Generated from the registered routes and the valibot schemas that validate their requests, so it describes exactly what is served.',
  tags: ['Operations'],
  auth: publicAccess,
  responses: { 200: jsonResponse('The OpenAPI 3.1 document.') },
});

/** `GET /openapi.json` (public): the registry's document, built on the first request and kept. Both apps mount it. */
export function registerOpenApi<E extends Env>(routes: RouteRegistry<E>): void {
  routes.add(openApiRoute, (c) => c.body(routes.openapi().json, 200, { 'content-type': 'application/json' }));
}
