import { type Embedder, keyTerms, mayShareAnswer, type RoleLexicon, roleInputs, wordPieceOverlap } from '@svc/semantic';
import type { Example } from './role-fit.js';

/** Words the role features treat as relation words and as other function words (their single word-piece ids ship in the model file). */
export const ROLE_LEXICON_WORDS = {
  relations:
    'from to by of than in into on onto at for with as about against between before after during since under over through toward towards without within upon via per vs versus among behind beyond across along around near like unlike off out up down'.split(
      ' ',
    ),
  other:
    "a an the and or but nor is was are were be been being has have had do does did will would can could should may might must shall this that these those it its he she they them his her their him we you i me my our your who whom whose which what when where why how not no there here , . ' \" ( ) - : ; ? ! ` s also".split(
      ' ',
    ),
};

/** A labelled pair (`a` stored, `b` asked) with its training weight, cross-validation fold and kind (paws, a generation rule, gptcache-even). */
export interface LabelledPair {
  a: string;
  b: string;
  y: number;
  w: number;
  fold: number;
  kind: string;
}

/** An example with its fold, kind and the base pair model's probability (`x` holds every input of ROLE_MODEL_INPUTS until the trainer picks its own). */
export type RoleExample = Example & { fold: number; kind: string; base: number; pieces: { stored: Int32Array; asked: Int32Array }; texts: { stored: string; asked: string } };

/** What the cache does with a pair before the role model: refuses it (cosine under 0.85, or the guard), serves it unasked (under the overlap floor), or asks the model. */
export type Route = 'refused' | 'unasked' | 'asked';

/** A pair's route and, when asked, its two examples (each text stored in turn). */
export interface PairRecord {
  pair: LabelledPair;
  route: Route;
  /** Share of word pieces the two texts have in common. */
  overlap: number;
  examples: RoleExample[];
}

const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, value, k) => s + value * y[k]!, 0);

/** Routes every pair as the cache would and computes the role model's inputs of those it would ask about. */
export async function pairRecords(embedder: Embedder, pairs: readonly LabelledPair[], lexicon: RoleLexicon, minOverlap: number): Promise<PairRecord[]> {
  const reader = embedder.pairReader;
  if (!reader) throw new Error('the embedder has no pair model');
  const records: PairRecord[] = [];
  for (const pair of pairs) {
    const [[va, vb], fa, fb] = await Promise.all([embedder.embed([pair.a, pair.b]), reader.features(pair.a), reader.features(pair.b)]);
    const cosine = dot(va!, vb!) / Math.sqrt(dot(va!, va!) * dot(vb!, vb!));
    const passes = cosine >= 0.85 && mayShareAnswer(keyTerms(pair.a), keyTerms(pair.b));
    const overlap = wordPieceOverlap(fa, fb);
    const route: Route = !passes ? 'refused' : overlap < minOverlap ? 'unasked' : 'asked';
    const example = (stored: typeof fa, query: typeof fa, texts: { stored: string; asked: string }): RoleExample => {
      const base = reader.score(query, stored, cosine);
      return { x: roleInputs(lexicon, base, { stored, asked: query, cosine, overlap }), y: pair.y, w: pair.w, fold: pair.fold, kind: pair.kind, base, pieces: { stored: stored.ids, asked: query.ids }, texts };
    };
    // Pairs the cache would never ask about still teach the model (the generated ones mostly fall under the cosine or the guard).
    const examples = overlap >= minOverlap ? [example(fa, fb, { stored: pair.a, asked: pair.b }), example(fb, fa, { stored: pair.b, asked: pair.a })] : [];
    records.push({ pair, route, overlap, examples });
  }
  return records;
}

