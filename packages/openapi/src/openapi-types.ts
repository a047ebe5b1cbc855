import type { JsonSchema } from './json-schema.js';
import type { HttpMethod } from './route-descriptor.js';

/** The parts of an OpenAPI 3.1 document this package writes. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    headers: Record<string, OpenApiHeader>;
    securitySchemes: Record<string, OpenApiSecurityScheme>;
  };
}

export interface OpenApiReference {
  $ref: string;
}

export interface OpenApiHeader {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiMediaType {
  schema?: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader | OpenApiReference>;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Empty: public. Otherwise one alternative per credential scheme; the list holds the scope or role needed. */
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: true; description?: string; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse | OpenApiReference>;
  deprecated?: true;
  /** The deprecation in machine-readable form (dates ISO-8601, as in the headers). */
  'x-svc-deprecation'?: { deprecated_at: string; sunset_at: string; migration_url: string; successor: string | null };
}

export type OpenApiSecurityScheme =
  | { type: 'http'; scheme: 'bearer'; bearerFormat?: string; description: string }
  | { type: 'apiKey'; in: 'header' | 'cookie'; name: string; description: string };
