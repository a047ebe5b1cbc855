import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../json-schema.js';
import type { OpenApiDocument } from '../openapi-types.js';

/**
 * Validates a document as OpenAPI 3.1 with @readme/openapi-parser (the OAS 3.1 JSON Schema plus
 * its own rules: unique operationIds, path parameters declared and required, `$ref`s resolving),
 * and every schema in it against the JSON Schema 2020-12 meta-schema. Returns the problems.
 */
export async function openApiProblems(document: OpenApiDocument): Promise<string[]> {
  // The parser resolves `$ref`s in place: hand it a copy.
  const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
  const problems = result.valid ? [] : [compileErrors(result)];
  const ajv = new Ajv2020({ strict: false });
  for (const [where, schema] of schemasOf(document)) {
    if (!ajv.validateSchema(schema)) problems.push(`${where}: ${ajv.errorsText(ajv.errors)}`);
  }
  return problems;
}

/** Every schema of the document with where it sits (components, parameters, bodies, responses). */
function schemasOf(document: OpenApiDocument): [string, JsonSchema][] {
  const out: [string, JsonSchema][] = Object.entries(document.components.schemas).map(([name, schema]) => [`components.schemas.${name}`, schema]);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) out.push([`${where} parameter ${parameter.name}`, parameter.schema]);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) if (media.schema) out.push([`${where} body ${type}`, media.schema]);
      for (const [status, response] of Object.entries(operation.responses)) {
        if ('content' in response) {
          for (const [type, media] of Object.entries(response.content ?? {})) if (media.schema) out.push([`${where} ${status} ${type}`, media.schema]);
        }
      }
    }
  }
  return out;
}

/**
 * A validator for the JSON Schema at `pointer` in the document (`#/components/schemas/X`), with
 * the document's own `$ref`s resolving: to check that a generated schema accepts and refuses
 * what the valibot schema it came from does.
 */
export function schemaValidator(document: OpenApiDocument, pointer: string): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(document as object, 'openapi');
  const check = ajv.compile({ $ref: `openapi${pointer}` });
  return (value) => check(value) === true;
}

/** A route as Hono lists it (`app.routes`): method and path pattern. */
export interface RegisteredRoute {
  method: string;
  path: string;
}

/**
 * The operations an app serves, in OpenAPI terms (`post /v1/models/{model}`), from its router's
 * table: `:name` and `:name{pattern}` become `{name}`, app-wide middleware (`ALL`) is left out,
 * and a GET route whose document operation is HEAD-only counts as that HEAD.
 */
export function servedOperations(routes: readonly RegisteredRoute[], document: OpenApiDocument): Set<string> {
  const out = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL') continue;
    const path = route.path.replace(/:([A-Za-z0-9_]+)(\{[^/]*\})?/g, '{$1}');
    const item = document.paths[path];
    const method = route.method === 'GET' && item?.head && !item.get ? 'head' : route.method.toLowerCase();
    out.add(`${method} ${path}`);
  }
  return out;
}

/** The operations a document describes (`get /v1/models`). */
export function documentedOperations(document: OpenApiDocument): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) for (const method of Object.keys(item)) out.add(`${method} ${path}`);
  return out;
}
