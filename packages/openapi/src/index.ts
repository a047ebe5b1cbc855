/**
 * @svc/openapi: framework-free route descriptors (method, path, auth, the valibot schemas that
 * validate the request, responses, deprecation), the OpenAPI 3.1 document generated from them,
 * and the deprecation headers of spec document 1 §Versioning. Apps register their routes from
 * these descriptors, so what is served and what is described cannot drift apart.
 */
export { checkDeprecation, deprecationHeaders, deprecationNotice, httpDate } from './deprecation.js';
export { DocSchemaBuilder } from './doc-schema.js';
export {
  anthropicErrorResponseSchema,
  errorObjectSchema,
  errorResponseSchema,
  errorStatusDescriptions,
} from './error-schemas.js';
export { type JsonSchema, SchemaConverter } from './json-schema.js';
export { type OpenApiBuild, type OpenApiOptions, buildOpenApiDocument } from './openapi-document.js';
export type * from './openapi-types.js';
export {
  type ErrorFormat,
  type ErrorStatus,
  type HttpMethod,
  type ObjectSchemaLike,
  type RouteAuth,
  type RouteBody,
  type RouteDeprecation,
  type RouteDescriptor,
  type RouteResponse,
  type SessionAssurance,
  adminOnly,
  bearer,
  jsonResponse,
  publicAccess,
  session,
  unsafeMethods,
} from './route-descriptor.js';
export { defineRoute, pathParamNames } from './define-route.js';
