import { randomUUID } from 'node:crypto';
import { createInferenceApp } from '@svc/inference';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReportTestContext, json, startReportRuntime } from './admin-routing-test-kit.js';
import { expectBearer, expectInvalid, keyWith } from './control-test-kit.js';

let ctx: ReportTestContext;
beforeAll(async () => {
  ctx = await startReportRuntime();
});
afterAll(async () => {
  await ctx?.runtime.close();
});

const put = (body: unknown, key?: string, query = '') => ctx.request(`/v1/output/config${query}`, { method: 'PUT', body, ...(key ? { key } : {}) });

describe('GET/PUT /v1/output/config', () => {
  it('needs a key (401); GET needs observability:read, PUT settings:write (403)', async () => {
    await expectBearer(ctx, '/v1/output/config', 'observability:read');
    await expectBearer(ctx, '/v1/output/config', 'settings:write', { method: 'PUT', body: { healing: false } });
  });

  it('answers the defaults until the organisation stores a config, then its config', async () => {
    const { org, key } = await keyWith(ctx, ['observability:read', 'settings:write']);
    expect(await json(await ctx.request('/v1/output/config', { key }))).toEqual({
      object: 'output_config',
      org_id: org.id,
      output_verification: 'auto',
      healing: true,
      min_confidence: 0,
      max_reasks: 1,
      cross_model_candidate: null,
      source: 'default',
      updated_at: null,
    });
    const stored = await json<Record<string, unknown>>(await put({ output_verification: 'cross_model', min_confidence: 0.7, cross_model_candidate: 'mock/mock-quality' }, key));
    expect(stored).toMatchObject({ output_verification: 'cross_model', healing: true, min_confidence: 0.7, max_reasks: 1, cross_model_candidate: 'mock/mock-quality', source: 'organization' });
    // A partial update keeps the other fields; null clears the candidate.
    expect(await json(await put({ max_reasks: 3, cross_model_candidate: null }, key))).toMatchObject({ output_verification: 'cross_model', min_confidence: 0.7, max_reasks: 3, cross_model_candidate: null });
    expect(await json(await ctx.request('/v1/output/config', { key }))).toMatchObject({ max_reasks: 3, source: 'organization', updated_at: expect.any(String) });
  });

  it('validates every field, naming it (400)', async () => {
    const { key } = await keyWith(ctx, ['settings:write']);
    await expectInvalid(await put('{', key), null);
    for (const [body, param] of [
      [{ output_verification: 'sometimes' }, 'output_verification'],
      [{ healing: 'no' }, 'healing'],
      [{ min_confidence: 1.5 }, 'min_confidence'],
      [{ min_confidence: -0.1 }, 'min_confidence'],
      [{ max_reasks: 4 }, 'max_reasks'],
      [{ max_reasks: 1.5 }, 'max_reasks'],
      [{ cross_model_candidate: 'acme/unknown-model' }, 'cross_model_candidate'],
      [{ cross_model_candidate: 'mock/mock-embed' }, 'cross_model_candidate'],
      [{ cross_model_candidate: '' }, 'cross_model_candidate'],
    ] as const) {
      await expectInvalid(await put(body, key), param, JSON.stringify(body));
    }
  });

  it('404 for an organisation that does not exist; another organisation’s config only for an admin', async () => {
    expect((await ctx.request(`/v1/output/config?org_id=${randomUUID()}`)).status).toBe(404);
    expect((await put({ healing: false }, undefined, `?org_id=${randomUUID()}`)).status).toBe(404);
    const { key } = await keyWith(ctx, ['observability:read', 'settings:write']);
    const other = await ctx.org('other');
    const denied = await ctx.request(`/v1/output/config?org_id=${other.id}`, { key });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: { code: 'tenant_violation' } });
    expect(await json(await put({ healing: false }, undefined, `?org_id=${other.id}`))).toMatchObject({ org_id: other.id, healing: false });
  });

  it('changes what the pipeline does for a request that names no output_verification, from its next request on', async () => {
    const { key } = await keyWith(ctx, ['inference:chat', 'observability:read', 'settings:write']);
    const inference = createInferenceApp({ ...ctx.runtime, maxBodyBytes: 64 * 1024 });
    const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'], additionalProperties: false };
    const ask = async () => {
      const response = await inference.request('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'mock/mock-value',
          // A fresh prompt each time (no cache hit); the mock answers the JSON with "days" as a string.
          messages: [{ role: 'user', content: `Forecast ${randomUUID()} [mock:reply={"city": "Paris", "days": "3"}]` }],
          response_format: { type: 'json_schema', json_schema: { name: 'forecast', schema, strict: true } },
        }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { choices: { message: { content: string } }[]; usage: { prompt_tokens: number }; svc_metadata: { healer_report?: { stage: number; confidence: number } } };
      return { content: body.choices[0]!.message.content, report: body.svc_metadata.healer_report, usage: body.usage };
    };

    const healed = await ask();
    expect(JSON.parse(healed.content)).toEqual({ city: 'Paris', days: 3 });
    expect(healed.report).toMatchObject({ stage: 2 });

    await json(await put({ healing: false }, key));
    const asWritten = await ask();
    expect(asWritten.content).toBe('{"city": "Paris", "days": "3"}');
    expect(asWritten.report).toMatchObject({ stage: 3, confidence: 0 });

    // Native verification by default: the answer it will not heal is re-asked, and the mock's second answer follows the schema.
    await json(await put({ output_verification: 'native' }, key));
    const reasked = await ask();
    const corrected = JSON.parse(reasked.content) as { city: unknown; days: unknown };
    expect(typeof corrected.days).toBe('number');
    expect(reasked.report).toMatchObject({ stage: 3, original: '{"city": "Paris", "days": "3"}' });
    expect(reasked.usage.prompt_tokens).toBeGreaterThan(asWritten.usage.prompt_tokens);
  });
});
