import { readFileSync } from 'node:fs';
import type { JsonSchema, OpenApiDocument } from '@svc/openapi';
import { runOpenApiConformance, schemaValidator } from '@svc/openapi/test';
import { decodeChatRequest } from '@svc/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RouteRegistry } from '@svc/http-kit';
import { useTestApp } from './test-app.js';

const master = 'sk-svc-openapi-test-master-key-4yX7C1YCTSVEI1JsSk9Wb3EP';
const t = useTestApp(master);
let document: OpenApiDocument;

/** Optional fields are `anyOf: [<schema>, {type: null}]`: the schema. */
const nonNull = (node: JsonSchema): JsonSchema => (node.anyOf?.find((option) => typeof option === 'object' && option.type !== 'null') as JsonSchema | undefined) ?? node;
const schema = (name: string) => document.components.schemas[name]!;
/** A (nested) field of a named request schema of our document. */
const property = (name: string, ...path: string[]): JsonSchema => {
  let node = schema(name);
  for (const key of path) node = (nonNull(node).properties?.[key] ?? {}) as JsonSchema;
  return nonNull(node);
};

beforeAll(async () => {
  document = (await (await t.app.request('/openapi.json')).json()) as OpenApiDocument;
});

describe('inference /openapi.json', () => {
  runOpenApiConformance({ app: () => t.app, keyWith: (scopes) => t.keyWith(scopes), registry: () => RouteRegistry.of(t.app)! });

  it("holds the spec's limits (document 1 §Limits) in the request schemas", () => {
    expect(property('CreateChatCompletionRequest', 'n')).toMatchObject({ type: 'integer', minimum: 1, maximum: 8 });
    expect(property('CreateChatCompletionRequest', 'temperature')).toMatchObject({ type: 'number', minimum: 0, maximum: 2 });
    for (const penalty of ['frequency_penalty', 'presence_penalty']) {
      expect(property('CreateChatCompletionRequest', penalty)).toMatchObject({ minimum: -2, maximum: 2 });
    }
    expect(property('CreateChatCompletionRequest', 'top_logprobs')).toMatchObject({ type: 'integer', maximum: 20 });
    expect(property('CreateChatCompletionRequest', 'routing_hints', 'max_tier')).toMatchObject({ enum: [1, 2, 3] });
    expect(property('CreateChatCompletionRequest', 'svc', 'max_chain_steps')).toMatchObject({ minimum: 1, maximum: 65535 });
    expect(property('CreateChatCompletionRequest', 'svc', 'chain_timeout_secs')).toMatchObject({ minimum: 0, maximum: 4294967295 });
    expect(property('CreateChatCompletionRequest', 'svc', 'cache_ttl_secs')).toMatchObject({ maximum: 86400 });
    expect(property('CreateChatCompletionRequest', 'messages')).toMatchObject({ type: 'array', minItems: 1 });
    expect(property('CreateSpeechRequest', 'input')).toMatchObject({ type: 'string', minLength: 1, maxLength: 4096 });
    expect(property('CreateSpeechRequest', 'speed')).toMatchObject({ minimum: 0.25, maximum: 4 });
    expect(property('CreateTranscriptionRequest', 'file')).toMatchObject({ type: 'string', contentMediaType: 'application/octet-stream', description: expect.stringContaining('413') });
    expect(schema('CreateChatCompletionRequest').required).toEqual(['model', 'messages']);
  });

  it('accepts and refuses chat bodies exactly as the validating schema does', () => {
    const valid = schemaValidator(document, '#/components/schemas/CreateChatCompletionRequest');
    const ok = { model: 'svc/auto', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], n: 8, temperature: 2, stop: ['x'], tool_choice: 'auto' };
    const bodies: [string, Record<string, unknown>][] = [
      ['valid', ok],
      ['n above 8', { ...ok, n: 9 }],
      ['temperature above 2', { ...ok, temperature: 2.1 }],
      ['no messages', { ...ok, messages: [] }],
      ['an unknown role', { ...ok, messages: [{ role: 'robot', content: 'hi' }] }],
      ['a bad tool_choice', { ...ok, tool_choice: 'sometimes' }],
      ['stop as a number', { ...ok, stop: 3 }],
      ['max_tier 4', { ...ok, routing_hints: { max_tier: 4 } }],
    ];
    for (const [what, body] of bodies) {
      let decoded = true;
      try {
        decodeChatRequest(body);
      } catch {
        decoded = false;
      }
      expect(valid(body), what).toBe(decoded);
    }
    expect(valid(ok)).toBe(true);
  });

  it('describes every Responses input item type', () => {
    const valid = schemaValidator(document, '#/components/schemas/CreateResponse');
    const call = { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' };
    expect(valid({ model: 'm', input: [{ role: 'user', content: 'hi' }, call, { type: 'function_call_output', call_id: 'c1', output: 'ok' }] })).toBe(true);
    expect(valid({ model: 'm', input: [{ type: 'web_search_call', id: 'x' }] })).toBe(false);
  });

  it('describes the voice forms as multipart, the image URLs as public and the realtime upgrade as a 101', () => {
    for (const [path, name] of [
      ['/v1/voice/transcribe', 'VoiceTranscribeRequest'],
      ['/v1/voice/chat', 'VoiceChatRequest'],
    ] as const) {
      expect(document.paths[path]?.post?.requestBody?.content['multipart/form-data']?.schema).toEqual({ $ref: `#/components/schemas/${name}` });
      expect(property(name, 'file')).toMatchObject({ type: 'string', contentMediaType: 'application/octet-stream' });
    }
    expect(property('VoiceChatRequest', 'system')).toMatchObject({ type: 'string', minLength: 1, maxLength: 8000 });
    expect(schema('VoiceChatRequest').required).toEqual(['language']);
    expect(document.paths['/v1/voice/synthesize']?.post?.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/VoiceSynthesizeRequest' });
    expect(document.paths['/v1/images/files/{name}']?.get?.security).toEqual([]);
    for (const path of ['/v1/voice/realtime', '/v1/realtime']) {
      const upgrade = document.paths[path]?.get;
      expect(Object.keys(upgrade?.responses ?? {})).toEqual(expect.arrayContaining(['101', '401', '403', '426']));
      expect(upgrade?.security).toContainEqual({ bearerAuth: ['inference:audio'] });
      expect(upgrade?.parameters?.map((p) => p.name)).toEqual(['model', 'conversation_id']);
    }
  });

  it('validates a voice form with the schema it publishes (same 400 naming the part)', async () => {
    const key = await t.keyWith(['inference:audio']);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(8)], { type: 'audio/wav' }), 'a.wav');
    form.append('language', 'Deutsch!');
    const response = await t.app.request('/v1/voice/chat', { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('language');
    const language = property('VoiceChatRequest', 'language');
    expect(new RegExp(language.pattern!).test('Deutsch!')).toBe(false);
    expect(new RegExp(language.pattern!).test('de-DE')).toBe(true);
  });

  it("answers errors in the shapes it describes, with x-error-id", async () => {
    const bad = await t.post('/v1/chat/completions', { model: 'svc/auto', messages: [], n: 9 });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-error-id')).toBeTruthy();
    expect(schemaValidator(document, '#/components/schemas/ErrorResponse')(await bad.json())).toBe(true);
    const anthropic = await t.app.request('/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anthropic.status).toBe(401);
    expect(schemaValidator(document, '#/components/schemas/AnthropicErrorResponse')(await anthropic.json())).toBe(true);
    expect(document.paths['/v1/messages']?.post?.responses['401']).toEqual({ $ref: '#/components/responses/AnthropicError401' });
  });
});

describe("inference /openapi.json against OpenAI's own description", () => {
  const openai = parse(readFileSync('/work/shared/conformance/openai/openapi.yaml', 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>;
    components: { schemas: Record<string, JsonSchema> };
  };
  const resolve = (node: JsonSchema): JsonSchema => (node.$ref ? resolve(openai.components.schemas[node.$ref.split('/').at(-1)!]!) : node);
  /** Every property name of an OpenAI schema, through its allOf/anyOf/oneOf parts. */
  const openaiFields = (node: JsonSchema, out = new Set<string>()): Set<string> => {
    const resolved = resolve(node);
    for (const part of [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) openaiFields(part as JsonSchema, out);
    for (const name of Object.keys(resolved.properties ?? {})) out.add(name);
    return out;
  };
  /** The gateway's own request fields (spec document 1) and OpenRouter's fallback list (`models`), absent from OpenAI's API. */
  const extensions = new Set(['routing_hints', 'routing_override', 'svc', 'reasoning', 'models']);

  it.each([
    ['/chat/completions', 'post', 'CreateChatCompletionRequest'],
    ['/completions', 'post', 'CreateCompletionRequest'],
    ['/embeddings', 'post', 'CreateEmbeddingRequest'],
    ['/moderations', 'post', 'CreateModerationRequest'],
    ['/audio/speech', 'post', 'CreateSpeechRequest'],
    ['/audio/transcriptions', 'post', 'CreateTranscriptionRequest'],
    ['/audio/translations', 'post', 'CreateTranslationRequest'],
    ['/responses', 'post', 'CreateResponse'],
    ['/images/generations', 'post', 'CreateImageRequest'],
  ])('%s: same operationId and request schema name, and every field name is OpenAI\'s or a declared extension', (path, method, name) => {
    const ours = document.paths[`/v1${path}`]?.[method as 'post'];
    expect(ours?.operationId).toBe(openai.paths[path]?.[method]?.operationId);
    const known = openaiFields({ $ref: `#/components/schemas/${name}` });
    const fields = Object.keys(document.components.schemas[name]?.properties ?? {});
    expect(fields.length).toBeGreaterThan(1);
    expect(fields.filter((field) => !known.has(field) && !extensions.has(field))).toEqual([]);
  });

  it('lists and retrieves models under the same operations and parameter name', () => {
    expect(document.paths['/v1/models']?.get?.operationId).toBe(openai.paths['/models']?.get?.operationId);
    expect(document.paths['/v1/models/{model}']?.get?.operationId).toBe(openai.paths['/models/{model}']?.get?.operationId);
  });

  it('retrieves, deletes and lists the input items of kept responses under the same operations and parameter name', () => {
    for (const [path, method] of [['/responses/{response_id}', 'get'], ['/responses/{response_id}', 'delete'], ['/responses/{response_id}/input_items', 'get']] as const) {
      const ours = document.paths[`/v1${path}`]?.[method];
      expect(ours?.operationId).toBe(openai.paths[path]?.[method]?.operationId);
      expect(ours?.parameters?.map((parameter) => (parameter as { name: string }).name)).toContain('response_id');
    }
  });

  it('keeps the ranges OpenAI states where the spec does not narrow them (n: 1..8 here, 1..128 there)', () => {
    /** A field of an OpenAI schema, found through its parts, without its `null` alternative. */
    const theirs = (node: JsonSchema, field: string): JsonSchema | undefined => {
      const resolved = resolve(node);
      const own = resolved.properties?.[field] as JsonSchema | undefined;
      if (own) return nonNull(resolve(own));
      for (const part of [...(resolved.allOf ?? []), ...(resolved.anyOf ?? [])]) {
        const found = theirs(part as JsonSchema, field);
        if (found) return found;
      }
      return undefined;
    };
    const request = { $ref: '#/components/schemas/CreateChatCompletionRequest' };
    for (const field of ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'top_logprobs']) {
      const { minimum, maximum } = theirs(request, field) ?? {};
      expect(property('CreateChatCompletionRequest', field), field).toMatchObject({ minimum, maximum });
    }
    expect(theirs(request, 'n')).toMatchObject({ minimum: 1, maximum: 128 });
  });
});
