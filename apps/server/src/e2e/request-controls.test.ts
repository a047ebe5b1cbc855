import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { sdkClients, useMockedGateway } from './mocked-gateway.js';

type WithSvc = { svc_metadata?: { not_applied?: string[] } };
const proxy = { headers: { 'x-intelligence-mode': 'proxy' } };

/** Issue 32, item 6: what a request asks for reaches each provider's own control, or is said not to. */
describe('thinking budgets, unapplied controls, fingerprints, unknown models and budgets (mock upstream)', () => {
  const mocked = useMockedGateway();
  const sent = () => mocked.upstream.stats().lastRequest!.body as Record<string, unknown>;


  it("maps Anthropic's thinking budget to each provider's control without shrinking max_tokens", async () => {
    const thinking = { max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 4096 }, messages: [{ role: 'user' as const, content: 'Plan a migration.' }] };
    await mocked.anthropic.messages.create({ model: 'openai/o4-mini', ...thinking }, proxy);
    // OpenAI counts reasoning inside max_completion_tokens: the client's whole limit, the budget as an effort.
    expect(sent()).toMatchObject({ model: 'o4-mini', max_completion_tokens: 8000, reasoning_effort: 'medium' });
    await mocked.anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-5', ...thinking }, proxy);
    expect(sent()).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 4096 } });
  });

  it('lists reasoning_effort on a non-reasoning model in not_applied and does not send it', async () => {
    const completion = await mocked.openai.chat.completions.create({ model: 'openai/gpt-4o-mini', reasoning_effort: 'high', messages: [{ role: 'user', content: 'Hi' }] }, proxy);
    expect((completion as WithSvc).svc_metadata!.not_applied).toContain('reasoning_effort');
    expect(sent()).not.toHaveProperty('reasoning_effort');
    const reasoning = await mocked.openai.chat.completions.create({ model: 'openai/o4-mini', reasoning_effort: 'high', messages: [{ role: 'user', content: 'Hi' }] }, proxy);
    expect((reasoning as WithSvc).svc_metadata!.not_applied ?? []).not.toContain('reasoning_effort');
    expect(sent()).toMatchObject({ reasoning_effort: 'high' });
  });

  it("passes the upstream's system_fingerprint through on chat completions, JSON and stream", async () => {
    const completion = await mocked.openai.chat.completions.create({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }, proxy);
    expect(completion.system_fingerprint).toBe('fp_mock');
    const streamed = await mocked.openai.chat.completions.stream({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }, proxy).finalChatCompletion();
    expect(streamed.system_fingerprint).toBe('fp_mock');
  });

  it('answers an unknown model with 404 model_not_found on every API, as OpenAI does', async () => {
    const before = mocked.upstream.stats().total;
    const chat = mocked.openai.chat.completions.create({ model: 'acme/unknown', messages: [{ role: 'user', content: 'x' }] });
    await expect(chat).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(chat).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model', type: 'not_found_error' });
    await expect(mocked.openai.responses.create({ model: 'acme/unknown', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(mocked.openai.embeddings.create({ model: 'acme/unknown', input: 'x' })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(mocked.anthropic.messages.create({ model: 'acme/unknown', max_tokens: 16, messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(Anthropic.NotFoundError);
    expect(mocked.upstream.stats().total).toBe(before);
  });

  it("refuses a request whose reserved maximum does not fit an unspent budget, saying so rather than 'exceeded'", async () => {
    const org = await mocked.gateway.runtime.db.orgs.create({ name: `budget-e2e-${Date.now()}`, monthlyBudgetUsd: 0.01 });
    const { secret } = await mocked.gateway.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const tenant = sdkClients(mocked.gateway, secret).openai;
    // 100k output tokens at o3's price reserve far more than $0.01; nothing is spent yet.
    const big = tenant.chat.completions.create({ model: 'openai/o3', max_completion_tokens: 100_000, messages: [{ role: 'user', content: 'x' }] });
    await expect(big).rejects.toMatchObject({ status: 402, code: 'budget_exceeded', type: 'billing_error' });
    const message = await big.catch((error: Error) => error.message);
    expect(message).toMatch(/reserved maximum, \$\d+\.\d+ \(its prompt and max_tokens at the model's prices\), does not fit the \$0\.01 left of the monthly budget \(\$0\.01 for \d{4}-\d{2}, \$0\.00 spent/);
    expect(message).not.toMatch(/exceeded/);
    // A request that fits is served.
    await expect(tenant.chat.completions.create({ model: 'openai/gpt-4o-mini', max_completion_tokens: 16, messages: [{ role: 'user', content: 'x' }] })).resolves.toMatchObject({ object: 'chat.completion' });
  });
});
