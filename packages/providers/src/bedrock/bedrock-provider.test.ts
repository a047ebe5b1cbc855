import { createHash } from 'node:crypto';
import { Hash } from '@smithy/core/serde';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import type { HttpClient, HttpRequest } from '../shared/http-client.js';
import { chatRequest, weatherTool } from '../test/chat-request.js';
import { fixtureFiles } from '../test/fixture-files.js';
import type { FixtureReply, RecordedRequest } from '../test/fixture-server.js';
import { rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { type BedrockSettings, createBedrockProvider } from './bedrock-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const MODEL = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
const base = chatRequest(MODEL);
const credentials = { accessKeyId: 'AKID', secretAccessKey: 'SECRET' };
const signingDate = new Date('2025-01-15T12:00:00Z');

const serveBedrock = useFixtureProvider((url, settings: Partial<BedrockSettings> = {}) =>
  createBedrockProvider({ region: 'us-east-1', credentials, baseUrl: `${url}/`, ...settings }),
);
/** Serves `reply` with a request id, as Bedrock answers. */
const serve = (reply: FixtureReply, settings?: Partial<BedrockSettings>) => serveBedrock({ ...reply, headers: { 'x-amzn-requestid': 'req-1', ...reply.headers } }, settings);

const bodyOf = (request: RecordedRequest | undefined) => request?.body as Record<string, unknown>;

/** Recomputes the SigV4 signature of a request as the server received it. */
async function expectedAuthorization(request: RecordedRequest, host: string, creds: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) {
  const signedNames = /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization))?.[1]?.split(';') ?? [];
  const headers: Record<string, string> = {};
  for (const name of signedNames) headers[name] = String(request.headers[name]);
  const [hostname = '', port] = host.split(':');
  const signer = new SignatureV4({ service: 'bedrock', region: 'us-east-1', credentials: creds, sha256: Hash.bind(null, 'sha256') });
  const signed = await signer.sign(
    { method: 'POST', protocol: 'http:', hostname, port: Number(port), path: request.path, query: {}, headers, body: JSON.stringify(request.body) },
    { signingDate },
  );
  return signed.headers.authorization;
}

describe('bedrock chat', () => {
  it('sends a signed Converse request and reads text, usage and cache tokens', async () => {
    const { server, provider } = await serve({ json: json('text') });
    const result = await provider.chat({ ...base, temperature: 1.6, topP: 1, stop: ['END'], maxTokens: 300 });

    const [sent] = server.requests;
    expect(sent?.path).toBe('/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse');
    expect(sent?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$/);
    expect(sent?.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(sent?.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(JSON.stringify(sent?.body)).digest('hex'));
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.body).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
      inferenceConfig: { maxTokens: 300, temperature: 1, stopSequences: ['END'] },
    });
    expect(result).toEqual({
      id: 'req-1',
      model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
      usage: { promptTokens: 2012, completionTokens: 11, totalTokens: 2023, cachedPromptTokens: 1800, cacheWriteTokens: 200 },
    });
  });

  it('signs what goes on the wire: an ARN model id, temporary credentials, extra headers', async () => {
    const temporary = { accessKeyId: 'ASIATEMP', secretAccessKey: 'TEMPSECRET', sessionToken: 'TOKEN123' };
    const { server, provider } = await serve({ json: json('text') }, { credentials: temporary, clock: () => signingDate, headers: { 'X-Trace': 't-1' } });
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0';
    await provider.chat({ ...base, model: arn });

    const [sent] = server.requests;
    expect(sent?.path).toBe(`/model/${encodeURIComponent(arn)}/converse`);
    expect(sent?.headers['x-amz-security-token']).toBe('TOKEN123');
    expect(sent?.headers['x-amz-date']).toBe('20250115T120000Z');
    expect(String(sent?.headers.authorization)).toContain('Credential=ASIATEMP/20250115/us-east-1/bedrock/aws4_request');
    expect(String(sent?.headers.authorization)).toContain('x-trace');
    expect(sent?.headers.authorization).toBe(await expectedAuthorization(sent!, new URL(server.url).host, temporary));
  });

  it('produces the known-good SigV4 signature for a fixed clock', async () => {
    const seen: HttpRequest[] = [];
    const http: HttpClient = {
      async request(request) {
        seen.push(request);
        return { status: 200, headers: { get: () => null }, text: async () => JSON.stringify(json('text')), body: (async function* () {})() };
      },
    };
    const provider = createBedrockProvider({ region: 'us-east-1', credentials, http, clock: () => signingDate });
    await provider.chat(base);
    expect(seen[0]?.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse');
    expect(seen[0]?.headers).toEqual({
      'content-type': 'application/json',
      'x-amz-date': '20250115T120000Z',
      'x-amz-content-sha256': createHash('sha256').update(seen[0]?.body ?? '').digest('hex'),
      // Computed by @smithy/signature-v4 and cross-checked by hand against the SigV4 spec (the path's
      // `%3A` is encoded once more in the canonical request); any change to what is signed changes it.
      authorization: 'AWS4-HMAC-SHA256 Credential=AKID/20250115/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=958d3099dc2578a5246788e490d9bb89804127751b0fffdb304ede8ae579b4f8',
    });
  });

  it('takes credential sets round-robin, honours a picked key, and sends Bedrock API keys as Bearer', async () => {
    const { server, provider } = await serve({ json: json('text') }, { credentials: [credentials, { accessKeyId: 'AKID2', secretAccessKey: 'S2' }], apiKeys: ['ABSKbedrockkey'] });
    await provider.chat(base);
    await provider.chat(base);
    await provider.chat(base);
    await provider.chat(base, { apiKey: 'AKIDBYOK:BYOKSECRET' });
    const auth = server.requests.map((request) => String(request.headers.authorization));
    expect(auth[0]).toContain('Credential=AKID/');
    expect(auth[1]).toContain('Credential=AKID2/');
    expect(auth[2]).toBe('Bearer ABSKbedrockkey');
    expect(auth[3]).toContain('Credential=AKIDBYOK/');
  });

  it('maps tools and tool choice, and returns tool calls as JSON text', async () => {
    const { server, provider } = await serve({ json: json('tools') });
    const result = await provider.chat({ ...base, tools: [weatherTool, { name: 'get_time' }], toolChoice: 'required' });

    expect(bodyOf(server.requests[0]).toolConfig).toEqual({
      tools: [
        { toolSpec: { name: 'get_weather', description: 'Current weather', inputSchema: { json: weatherTool.parameters } } },
        { toolSpec: { name: 'get_time', inputSchema: { json: { type: 'object', properties: {} } } } },
      ],
      toolChoice: { any: {} },
    });
    expect(result.choices[0]).toEqual({
      index: 0,
      finishReason: 'tool_calls',
      message: {
        role: 'assistant',
        content: "I'll check the weather in Paris and the time.",
        toolCalls: [
          { id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          { id: 'tooluse_Zt7ivKkNR2mW5CmBQWd2lA', name: 'get_time', arguments: '{}' },
        ],
      },
    });
    expect(result.usage).toEqual({ promptTokens: 402, completionTokens: 95, totalTokens: 497 });
  });

  it('sends tool history as toolUse / toolResult blocks, results first in the user turn', async () => {
    const { server, provider } = await serve({ json: json('text') });
    await provider.chat({
      ...base,
      tools: [weatherTool],
      toolChoice: 'none',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, toolCalls: [{ id: 't1', name: 'get_weather', arguments: '{"location":"Paris"}' }] },
        { role: 'tool', toolCallId: 't1', content: '18°C' },
        { role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' }] },
      ],
    });
    const body = bodyOf(server.requests[0]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ text: 'Weather?' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'get_weather', input: { location: 'Paris' } } }] },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: 't1', content: [{ text: '18°C' }] } }, { text: 'And this?' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }],
      },
    ]);
    // `none` has no Converse spelling; the history's tool blocks still require the tool config.
    expect(body.toolConfig).toEqual({ tools: [expect.objectContaining({ toolSpec: expect.objectContaining({ name: 'get_weather' }) })] });
  });

  it('refuses image URLs it would have to fetch', async () => {
    const { provider } = await serve({ json: json('text') });
    const error = await rejection(provider.chat({ ...base, messages: [{ role: 'user', content: [{ type: 'image', url: 'https://example.com/cat.png' }] }] }));
    expect([error.kind, error.param]).toEqual(['invalid_request', 'messages[0].content']);
  });

  it('sends documents inline with a name Converse accepts', async () => {
    const { server, provider } = await serve({ json: json('text') });
    await provider.chat({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'Sum up' }, { type: 'file', data: 'data:application/pdf;base64,JVBERi0=', filename: 'Q3_report.v2.pdf' }] }] });
    expect(bodyOf(server.requests[0]).messages).toEqual([
      { role: 'user', content: [{ text: 'Sum up' }, { document: { format: 'pdf', name: 'Q3 report v2 (0-1)', source: { bytes: 'JVBERi0=' } } }] },
    ]);
  });

  it('emulates JSON mode with a forced tool whose input becomes the content', async () => {
    const { server, provider } = await serve({ json: json('json-mode') });
    const schema = { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer' } }, required: ['city'] };
    const result = await provider.chat({ ...base, responseFormat: { type: 'json_schema', name: 'city', schema } });

    expect(bodyOf(server.requests[0]).toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'json_response', description: 'Give the final answer as JSON matching the "city" schema.', inputSchema: { json: schema } } }],
      toolChoice: { tool: { name: 'json_response' } },
    });
    expect(result.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: '{"city":"Paris","population":2102650}' }, finishReason: 'stop' });
  });

  it('turns reasoning effort into Claude thinking on top of maxTokens, and returns the reasoning', async () => {
    const { server, provider } = await serve({ json: json('reasoning') });
    const result = await provider.chat({ ...base, maxTokens: 1000, temperature: 0.2, reasoningEffort: 'low', tools: [weatherTool], toolChoice: 'required' });
    const body = bodyOf(server.requests[0]);
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 3048 });
    expect(body.toolConfig).toMatchObject({ toolChoice: { auto: {} } });
    expect(result.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: '12,231', reasoning: '27 * 453 = 12231' }, finishReason: 'length' });
  });

  it('sends no thinking fields to models that do not take them', async () => {
    const { server, provider } = await serve({ json: json('text') });
    await provider.chat({ ...base, model: 'meta.llama3-3-70b-instruct-v1:0', reasoningEffort: 'high' });
    expect(bodyOf(server.requests[0])).not.toHaveProperty('additionalModelRequestFields');
  });
});

describe('bedrock errors', () => {
  it.each([
    ['throttling', 429, 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'rate_limit', true],
    ['context-too-long', 400, 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'context_length', true],
    ['validation', 400, 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'invalid_request', false],
    ['access-denied', 403, 'AccessDeniedException:http://internal.amazon.com/coral/com.amazon.coral.service/', 'authentication', true],
    ['model-not-ready', 429, 'ModelNotReadyException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'overloaded', true],
    ['model-timeout', 408, 'ModelTimeoutException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'timeout', true],
    ['service-unavailable', 503, 'ServiceUnavailableException:http://internal.amazon.com/coral/com.amazon.bedrock/', 'overloaded', true],
  ] as const)('classifies %s (%i) as %s', async (name, status, type, kind, retryable) => {
    const { provider } = await serve({ status, json: json(name), headers: { 'x-amzn-errortype': type } });
    const error = await rejection(provider.chat(base));
    expect([error.kind, error.retryable, error.upstreamStatus, error.upstreamCode]).toEqual([kind, retryable, status, type.split(':')[0]]);
    expect(error.message).toBe(Object.values(json(name) as Record<string, string>)[0]);
  });

  it('reads the type from the body when the header is missing', async () => {
    const { provider } = await serve({ status: 404, json: { __type: 'com.amazon.coral#ResourceNotFoundException', message: 'Model not found.' } });
    const error = await rejection(provider.chat(base));
    expect([error.kind, error.upstreamCode]).toEqual(['not_found', 'ResourceNotFoundException']);
  });
});
