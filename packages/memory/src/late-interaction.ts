import type { Embedder } from '@svc/semantic';

/** An embedder that also gives each text's contextual token states (`@svc/encoder`'s sentence encoder does). */
export interface TokenStatesReader {
  embedWithTokens(texts: readonly string[]): Promise<{ tokens: { ids: Int32Array; states: Float32Array } }[]>;
}

export const readsTokens = (embedder: Embedder): embedder is Embedder & TokenStatesReader =>
  typeof (embedder as Partial<TokenStatesReader>).embedWithTokens === 'function';

/** Each word piece's state, L2-normalised. */
function rowsOf(tokens: { ids: Int32Array; states: Float32Array }, dimensions: number): Float32Array[] {
  return Array.from({ length: tokens.ids.length }, (_, r) => {
    const row = tokens.states.slice(r * dimensions, (r + 1) * dimensions);
    let norm = 0;
    for (const x of row) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < row.length; i++) row[i]! /= norm;
    return row;
  });
}

function bestCosine(query: Float32Array, fact: readonly Float32Array[]): number {
  let best = -1;
  for (const row of fact) {
    let dot = 0;
    for (let i = 0; i < query.length; i++) dot += query[i]! * row[i]!;
    if (dot > best) best = dot;
  }
  return best;
}

/**
 * How well each fact answers the query word by word (ColBERT's MaxSim, untrained): for every word
 * piece of the query its best cosine to a word piece of the fact, averaged. It reads the two texts'
 * token states side by side, so "Which streaming service do I use?" meets "signed up for Hulu" on
 * more than one averaged vector. One encoder pass over the query and the facts.
 */
export async function lateInteraction(embedder: Embedder & TokenStatesReader, query: string, facts: readonly string[]): Promise<number[]> {
  if (facts.length === 0) return [];
  const [q, ...rest] = (await embedder.embedWithTokens([query, ...facts])).map((e) => rowsOf(e.tokens, embedder.dimensions));
  return rest.map((fact) => (q!.length === 0 ? 0 : q!.reduce((sum, row) => sum + bestCosine(row, fact), 0) / q!.length));
}
