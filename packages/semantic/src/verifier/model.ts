/**
 * A boosted ensemble of depth-limited decision trees over pair features (logistic loss), as
 * `pnpm --filter @svc/evals semantic:hashed --train` writes it. Each tree is complete: internal node
 * `k` (heap order) sends a row right when `x[feature[k]] > threshold[k]`; the leaves follow.
 */
export interface VerifierModel {
  /** Recipe and provenance, for people: how it was trained and on what. */
  about: string;
  /** The embedder whose cosine is feature 0; the model is valid only with it. */
  embedder: string;
  features: readonly string[];
  depth: number;
  /** Log-odds before any tree. */
  bias: number;
  trees: readonly { feature: readonly number[]; threshold: readonly number[]; leaf: readonly number[] }[];
  /** Lowest probability served as a hit, chosen on the held-out split (docs/caching.md). */
  threshold: number;
  /** Lowest cosine a candidate needs to reach the verifier at all. */
  candidateFloor: number;
}

/** A model's trees packed into typed arrays, for a walk without object lookups. */
export interface PackedModel {
  depth: number;
  bias: number;
  feature: Int32Array;
  threshold: Float64Array;
  leaf: Float64Array;
}

export function packModel(model: VerifierModel): PackedModel {
  return {
    depth: model.depth,
    bias: model.bias,
    feature: Int32Array.from(model.trees.flatMap((t) => t.feature)),
    threshold: Float64Array.from(model.trees.flatMap((t) => t.threshold)),
    leaf: Float64Array.from(model.trees.flatMap((t) => t.leaf)),
  };
}

/** Probability that a stored question asks the same as the query, from their features. */
export function scoreModel(model: PackedModel, x: ArrayLike<number>): number {
  const internal = (1 << model.depth) - 1;
  const trees = model.leaf.length / (internal + 1);
  let z = model.bias;
  for (let t = 0, base = 0; t < trees; t++, base += internal) {
    let node = 0;
    while (node < internal) node = 2 * node + (x[model.feature[base + node]!]! > model.threshold[base + node]! ? 2 : 1);
    z += model.leaf[t * (internal + 1) + node - internal]!;
  }
  return 1 / (1 + Math.exp(-z));
}

/** Throws unless `value` is a well-formed {@link VerifierModel} over `featureNames`. */
export function checkModel(value: VerifierModel, featureNames: readonly string[]): VerifierModel {
  const internal = (1 << value.depth) - 1;
  if (value.features.join() !== featureNames.join()) throw new Error('verifier model: its features are not the ones the code computes; retrain it (eval --train)');
  for (const tree of value.trees) {
    if (tree.feature.length !== internal || tree.threshold.length !== internal || tree.leaf.length !== internal + 1) throw new Error('verifier model: a tree of the wrong shape');
    if (tree.feature.some((f) => !Number.isInteger(f) || f < 0 || f >= featureNames.length)) throw new Error('verifier model: a feature index out of range');
  }
  if (!(value.threshold > 0 && value.threshold < 1)) throw new Error('verifier model: threshold must be in (0, 1)');
  return value;
}
