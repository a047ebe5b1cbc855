/**
 * Spherical k-means on unit vectors (the shared encoder's prompt embeddings): centroids are unit
 * mean directions, a vector belongs to the centroid of the largest dot product. Seeded (k-means++
 * start on 1 - cosine), so a run reproduces.
 */
import { seededRandom } from '@svc/core';

export interface KMeansOptions {
  k: number;
  seed: number;
  /** Lloyd iterations at most (default 25); stops earlier once no assignment changes. */
  iterations?: number;
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
};

/** Each vector's centroid: the largest dot product, the lowest index on a tie. */
export function nearest(vectors: readonly Float32Array[], centroids: readonly Float32Array[]): Int32Array {
  const out = new Int32Array(vectors.length);
  vectors.forEach((v, i) => {
    let best = -Infinity;
    centroids.forEach((c, j) => {
      const d = dot(v, c);
      if (d > best) {
        best = d;
        out[i] = j;
      }
    });
  });
  return out;
}

/** k-means++ on 1 - cosine: each next centroid drawn with probability proportional to its distance from the nearest one chosen. */
function seeds(vectors: readonly Float32Array[], k: number, next: () => number): Float32Array[] {
  const chosen = [vectors[Math.floor(next() * vectors.length)]!];
  const distance = vectors.map((v) => Math.max(0, 1 - dot(v, chosen[0]!)));
  while (chosen.length < k) {
    const total = distance.reduce((s, d) => s + d, 0);
    let target = next() * total;
    let pick = vectors.length - 1;
    for (let i = 0; i < distance.length; i++) {
      target -= distance[i]!;
      if (target < 0) {
        pick = i;
        break;
      }
    }
    const c = vectors[pick]!;
    chosen.push(c);
    vectors.forEach((v, i) => {
      distance[i] = Math.min(distance[i]!, Math.max(0, 1 - dot(v, c)));
    });
  }
  return chosen.map((c) => Float32Array.from(c));
}

/** Unit mean direction of each cluster's members; an empty cluster keeps its centroid. */
function means(vectors: readonly Float32Array[], assignment: Int32Array, previous: readonly Float32Array[]): Float32Array[] {
  const sums = previous.map((c) => new Float32Array(c.length));
  vectors.forEach((v, i) => {
    const sum = sums[assignment[i]!]!;
    for (let j = 0; j < v.length; j++) sum[j]! += v[j]!;
  });
  return sums.map((sum, c) => {
    const norm = Math.sqrt(dot(sum, sum));
    return norm > 0 ? sum.map((x) => x / norm) : previous[c]!;
  });
}

/** The centroids of `k` clusters of `vectors` (unit length; k at most the number of vectors). */
export function sphericalKMeans(vectors: readonly Float32Array[], options: KMeansOptions): Float32Array[] {
  if (options.k < 1 || options.k > vectors.length) throw new RangeError(`k must be 1..${vectors.length}`);
  let centroids = seeds(vectors, options.k, seededRandom(options.seed));
  let assignment = nearest(vectors, centroids);
  for (let round = 0; round < (options.iterations ?? 25); round++) {
    centroids = means(vectors, assignment, centroids);
    const next = nearest(vectors, centroids);
    const moved = next.some((c, i) => c !== assignment[i]);
    assignment = next;
    if (!moved) break;
  }
  return centroids;
}
