import type { Embedder } from '../embedder/interface.js';
import { createSemanticCache } from '../semantic-cache.js';
import { createMemoryVectorStore } from '../store/memory.js';
import { cachedAnswer, chatRequest } from '../test/fixtures.js';
import type { ParaphrasePair } from './dataset.js';

export interface ProtocolCounts {
  threshold: number;
  guard: boolean;
  correct: number;
  wrong: number;
  miss: number;
}

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
 * Lookups go through the production path: eligibility, scope, search, key-term guard.
 */
export async function runGptCacheProtocol(embedder: Embedder, pairs: readonly ParaphrasePair[], thresholds: readonly number[]): Promise<ProtocolCounts[]> {
  const store = createMemoryVectorStore({ capacity: pairs.length + 10 });
  const loader = createSemanticCache({ embedder, store, threshold: 1 });
  for (const [i, pair] of pairs.entries()) await loader.store(ask(pair.origin), 'eval', cachedAnswer(String(i)));
  const counts: ProtocolCounts[] = [];
  for (const threshold of thresholds) {
    for (const guard of [true, false]) {
      const cache = createSemanticCache({ embedder, store, threshold, keyTermGuard: guard, lookupTimeoutMs: 60_000 });
      const row: ProtocolCounts = { threshold, guard, correct: 0, wrong: 0, miss: 0 };
      for (const [i, pair] of pairs.entries()) {
        const found = await cache.lookup(ask(pair.similar), 'eval');
        if (!found?.hit) row.miss++;
        else {
          const answered = pairs[Number(found.answer.result.choices[0]!.message.content)];
          if (answered?.origin === pair.origin || found.answer.result.choices[0]!.message.content === String(i)) row.correct++;
          else row.wrong++;
        }
      }
      counts.push(row);
    }
  }
  await store.close();
  return counts;
}
