import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useMockOpenAIGateway } from './mock-openai-gateway.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Image generation through the OpenAI adapter against the project's mock upstream, with the official SDK. */
describe('openai SDK: images (mock upstream)', () => {
  const served = useMockOpenAIGateway();
  const { ledgerRow } = served;

  it('answers a URL the gateway serves without a key: a PNG with its content type; the upstream was asked for base64; one priced ledger row', async () => {
    const { data: images, response } = await served.client.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse at dawn', size: '1792x1024', quality: 'hd', style: 'natural' }).withResponse();
    expect(served.upstream.stats().lastRequest?.body).toEqual({ model: 'dall-e-3', prompt: 'a lighthouse at dawn', n: 1, size: '1792x1024', quality: 'hd', style: 'natural', response_format: 'b64_json' });
    expect(served.upstream.stats().lastRequest?.headers.authorization).toBe('Bearer sk-upstream-openai');
    expect(images.data).toHaveLength(1);
    const image = images.data![0]!;
    expect(image.b64_json).toBeUndefined();
    expect(image.revised_prompt).toContain('a lighthouse at dawn');
    expect(image.url).toMatch(new RegExp(`^${served.gateway.inferenceUrl}/v1/images/files/[A-Za-z0-9_-]{32}\\.png$`));
    expect(images.created).toBeGreaterThan(1_700_000_000);

    const file = await fetch(image.url!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(file.headers.get('content-length')).toBe(String(bytes.length));

    expect(response.headers.get('x-svc-cost-usd')).toBe('0.12');
    expect(response.headers.get('x-svc-model')).toBe('openai/dall-e-3');
    expect(response.headers.get('x-svc-intelligence-mode')).toBe('full');
    expect((images as { svc_metadata?: unknown }).svc_metadata).toMatchObject({ cost_usd: 0.12, cost_attribution: 'svc', requested_model: 'dall-e-3' });
    expect(await ledgerRow(response.headers)).toMatchObject({ model: 'openai/dall-e-3', provider: 'openai', costUsd: 0.12, status: 200 });
  });

  it('answers base64 in the body for b64_json, n images of dall-e-2 priced per image', async () => {
    const { data: images, response } = await served.client.images.generate({ model: 'dall-e-2', prompt: 'three cats', n: 3, size: '256x256', response_format: 'b64_json' }).withResponse();
    expect(images.data).toHaveLength(3);
    for (const image of images.data!) {
      expect(image.url).toBeUndefined();
      expect(Buffer.from(image.b64_json!, 'base64').subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    }
    // 3 images at $0.016.
    expect(Number(response.headers.get('x-svc-cost-usd'))).toBeCloseTo(0.048, 10);
    expect((await ledgerRow(response.headers))?.costUsd).toBeCloseTo(0.048, 10);
  });

  it('defaults to DALL·E 3, one standard 1024x1024 image', async () => {
    const { response } = await served.client.images.generate({ prompt: 'a red fox' }).withResponse();
    expect(served.upstream.stats().lastRequest?.body).toMatchObject({ model: 'dall-e-3', n: 1, size: '1024x1024', quality: 'standard' });
    expect(await ledgerRow(response.headers)).toMatchObject({ model: 'openai/dall-e-3', costUsd: 0.04 });
  });

  it('bills gpt-image-1 by the tokens it reports and still serves its images by URL', async () => {
    const { data: images, response } = await served.client.images.generate({ model: 'gpt-image-1', prompt: 'a fox sticker', quality: 'low', size: '1024x1024' }).withResponse();
    const sent = served.upstream.stats().lastRequest?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ model: 'gpt-image-1', quality: 'low', size: '1024x1024' });
    expect(sent.response_format).toBeUndefined();
    expect(images.usage).toMatchObject({ output_tokens: 272 });
    expect((await fetch(images.data![0]!.url!)).status).toBe(200);
    // 4 input tokens at $5 and 272 output tokens at $40 per million.
    const cost = (images.usage!.input_tokens * 5 + 272 * 40) / 1e6;
    expect(await ledgerRow(response.headers)).toMatchObject({ model: 'openai/gpt-image-1', completionTokens: 272 });
    expect((await ledgerRow(response.headers))?.costUsd).toBeCloseTo(cost, 10);
  });

  it('refuses limits with 400 naming the param, and a refused prompt with 400 content_filter', async () => {
    for (const [param, body] of [
      ['n', { model: 'dall-e-3', prompt: 'x', n: 2 }],
      ['n', { model: 'dall-e-2', prompt: 'x', n: 11 }],
      ['size', { model: 'dall-e-2', prompt: 'x', size: '1792x1024' }],
      ['quality', { model: 'dall-e-2', prompt: 'x', quality: 'hd' }],
      ['style', { model: 'dall-e-2', prompt: 'x', style: 'vivid' }],
    ] as const) {
      const error = await served.client.images.generate(body).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe(param);
    }
    const refused = await served.client.images.generate({ model: 'dall-e-3', prompt: 'something forbidden' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('content_filter');
  });

  it('passes an upstream rate limit on as 429', async () => {
    served.upstream.configure({ fault: '429', failFirst: 1 });
    try {
      await expect(served.client.images.generate({ prompt: 'x' })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    } finally {
      served.upstream.configure({ fault: undefined, failFirst: undefined });
    }
  });

  it('lists the image models with the other models', async () => {
    const ids = [];
    for await (const model of served.client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['openai/dall-e-3', 'openai/dall-e-2', 'openai/gpt-image-1', 'openai/tts-1']));
    expect(await served.client.models.retrieve('openai/dall-e-3')).toMatchObject({ id: 'openai/dall-e-3', owned_by: 'openai' });
  });

  it('answers 403 without the images scope', async () => {
    const org = await served.gateway.runtime.db.orgs.ensure('e2e-images-scope');
    const chatOnly = (await served.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
    const limited = new OpenAI({ baseURL: `${served.gateway.inferenceUrl}/v1`, apiKey: chatOnly, maxRetries: 0 });
    await expect(limited.images.generate({ prompt: 'x' })).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
  });
});

describe('openai SDK: image URLs expire (mock upstream, a short lifetime)', () => {
  const served = useMockOpenAIGateway({ imageUrlTtlMs: 400 });

  it('serves the URL until its lifetime is over, then 404 not_found_error', async () => {
    const images = await served.client.images.generate({ prompt: 'a short-lived image' });
    const url = images.data![0]!.url!;
    expect((await fetch(url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const expired = await fetch(url);
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as { error: { type: string } }).error.type).toBe('not_found_error');
  });
});
