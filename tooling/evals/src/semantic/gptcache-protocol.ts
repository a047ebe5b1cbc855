import type { Embedder } from '@svc/semantic';
import { createSemanticCache, type SemanticCacheSettings } from '@svc/semantic';
import { createMemoryVectorStore } from '@svc/semantic';
import { cachedAnswer, chatRequest } from '@svc/semantic/test';
import type { ParaphrasePair } from './dataset.js';

export type Outcome = 'correct' | 'wrong' | 'miss';

export interface ProtocolCounts {
  label: string;
  correct: number;
  wrong: number;
  miss: number;
  /** Each paraphrase's outcome, in pair order (halves of the data, per-pair reading). */
  outcomes: Outcome[];
}

/** One way of deciding a hit: the cache settings that differ from the defaults. */
export type Decider = { label: string } & Pick<SemanticCacheSettings, 'threshold' | 'verifier' | 'keyTermGuard' | 'ambiguityMargin' | 'candidates' | 'pairReader'>;

// GPTCache's benchmark asks with this system prompt; ours is part of the scope, so it must match.
const ask = (question: string) =>
  chatRequest(question, {
    model: 'gpt-3.5-turbo',
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: question },
    ],
  });

/**
 * GPTCache's benchmark protocol (examples/benchmark/benchmark_sqlite_faiss_onnx.py): every
 * `origin` is stored with its pair number as the answer, then every `similar` is looked up
 * against the whole store. A hit answering with the pair's own number is correct, a hit with
 * another pair's number is wrong, no hit is a miss. The data repeats 35 origins under two
 * numbers; a hit on the twin of the same origin text counts as correct (the answer is right).
 * Lookups go through the production path: eligibility, scope, search, key-term guard, verifier.
 */
export async function runGptCacheProtocol(embedder: Embedder, pairs: readonly ParaphrasePair[], deciders: readonly Decider[]): Promise<ProtocolCounts[]> {
  const store = createMemoryVectorStore({ capacity: pairs.length + 10 });
  // Stores through the cache with the embedder's pair model, so entries keep its features.
  const loader = createSemanticCache({ embedder, store, threshold: 1, verifier: false });
  for (const [i, pair] of pairs.entries()) await loader.store(ask(pair.origin), 'eval', cachedAnswer(String(i)));
  const counts: ProtocolCounts[] = [];
  for (const { label, ...decider } of deciders) {
    const cache = createSemanticCache({ embedder, store, lookupTimeoutMs: 60_000, ...decider });
    const row: ProtocolCounts = { label, correct: 0, wrong: 0, miss: 0, outcomes: [] };
    for (const [i, pair] of pairs.entries()) {
      const found = await cache.lookup(ask(pair.similar), 'eval');
      let outcome: Outcome = 'miss';
      if (found?.hit) {
        const content = found.answer.result.choices[0]!.message.content;
        outcome = pairs[Number(content)]?.origin === pair.origin || content === String(i) ? 'correct' : 'wrong';
      }
      row[outcome]++;
      row.outcomes.push(outcome);
    }
    counts.push(row);
  }
  await store.close();
  return counts;
}
