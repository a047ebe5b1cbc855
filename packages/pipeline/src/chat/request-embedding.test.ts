import type { RouteContext } from '@svc/router';
import { createRouter } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { answering, catalog, request, setup } from '../test/gateway-harness.js';
import { EMBEDDING_WAIT_MS } from './request-embedding.js';

/** A router that remembers the context of every decision, and an encoder that counts what it embeds. */
function watched(embed: (texts: string[]) => Promise<Float32Array[]> = async (texts) => texts.map(() => new Float32Array(384).fill(0.05))) {
  const router = createRouter({ catalog, embedder: false });
  const contexts: RouteContext[] = [];
  const embedded: string[] = [];
  const spy = {
    ...router,
    route: (req: Parameters<typeof router.route>[0], context?: RouteContext) => {
      contexts.push(context ?? {});
      return router.route(req, context);
    },
  };
  const sentences = {
    embed: (texts: string[]) => {
      embedded.push(...texts);
      return embed(texts);
    },
  };
  return { router: spy, sentences, contexts, embedded };
}

const providers = () => ['groq', 'together', 'anthropic', 'openai'].map((id) => answering(id));
const question = 'Prove that the square root of two is irrational.';

describe('the request embedding the router reads', () => {
  it('is computed once from the last user message and routes an alias request again, in cache and full modes', async () => {
    for (const mode of ['cache', 'full'] as const) {
      const w = watched();
      const { gateway, context } = setup(providers(), undefined, { router: w.router, sentences: w.sentences });
      const answer = await gateway.chat(request({ model: 'svc/auto', messages: [{ role: 'user', content: question }] }), context(mode));
      expect(answer.kind).toBe('json');
      expect(w.embedded).toEqual([question]);
      expect(w.contexts.at(-1)?.embedding).toBeInstanceOf(Float32Array);
    }
  });

  it('is not computed in proxy mode nor for a pinned model', async () => {
    const w = watched();
    const { gateway, context } = setup(providers(), undefined, { router: w.router, sentences: w.sentences });
    await gateway.chat(request({ model: 'svc/auto', messages: [{ role: 'user', content: question }] }), context('proxy'));
    await gateway.chat(request({ messages: [{ role: 'user', content: question }] }), context('cache'));
    expect(w.embedded).toEqual([]);
    expect(w.contexts.every((c) => c.embedding === undefined)).toBe(true);
  });

  it('never fails a request: a failing or slow encoder routes on the text signals', async () => {
    const failing = watched(async () => {
      throw new Error('encoder down');
    });
    const down = setup(providers(), undefined, { router: failing.router, sentences: failing.sentences });
    expect((await down.gateway.chat(request({ model: 'svc/auto', messages: [{ role: 'user', content: question }] }), down.context('cache'))).kind).toBe('json');
    expect(failing.contexts.every((c) => c.embedding === undefined)).toBe(true);

    const stuck = watched(() => new Promise<Float32Array[]>(() => {}));
    const slow = setup(providers(), undefined, { router: stuck.router, sentences: stuck.sentences });
    const started = performance.now();
    expect((await slow.gateway.chat(request({ model: 'svc/auto', messages: [{ role: 'user', content: question }] }), slow.context('cache'))).kind).toBe('json');
    expect(performance.now() - started).toBeGreaterThanOrEqual(EMBEDDING_WAIT_MS - 5);
    expect(stuck.contexts.every((c) => c.embedding === undefined)).toBe(true);
  });
});
