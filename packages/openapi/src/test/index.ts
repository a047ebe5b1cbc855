/**
 * @svc/openapi/test: checks an app's OpenAPI document against the standard and against the app.
 * Used by the apps' tests; never bundled into them.
 */
export { type AppUnderTest, type OpenApiConformanceOptions, type OutsideApiMount, type RegistryUnderTest, runOpenApiConformance } from './conformance.js';
export { type RegisteredRoute, documentedOperations, openApiProblems, schemaValidator, servedOperations } from './validate.js';
export { type BoundaryFuzzOptions, deeplyNested, hostileNumbers, hostileStrings, runBoundaryFuzz } from './boundary-fuzz.js';
