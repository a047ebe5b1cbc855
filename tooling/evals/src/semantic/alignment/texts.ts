import { semanticKeyOf } from '@svc/semantic';
import { chatRequest } from '@svc/semantic/test';
import { findDataDir, loadParaphrases, loadQqp, type ParaphrasePair, type QqpPair } from '../dataset.js';
import { loadNearMisses, type NearMiss } from '../near-misses.js';

/** The three evaluation sets and the exact text the cache embeds for a question. */
export interface EvalSets {
  qqp: QqpPair[];
  paraphrases: ParaphrasePair[];
  nearMisses: NearMiss[];
  asked: (question: string) => string;
  /** Every text the evaluation embeds, as asked. */
  texts: string[];
}

export function loadEvalSets(data?: string): EvalSets {
  const dir = findDataDir(process.cwd(), data);
  const qqp = loadQqp(dir);
  const paraphrases = loadParaphrases(dir);
  const nearMisses = loadNearMisses();
  // Exactly the text the cache embeds (the final user message, spacing collapsed).
  const asked = (question: string): string => semanticKeyOf(chatRequest(question))?.text ?? question;
  const texts = [...qqp.flatMap((p) => [p.a, p.b]), ...paraphrases.flatMap((p) => [p.origin, p.similar]), ...nearMisses.flatMap((p) => [p.a, p.b])].map(asked);
  return { qqp, paraphrases, nearMisses, asked, texts };
}
