/**
 * Jensen–Shannon divergence of two distributions given as counts per value, in bits:
 * JSD(P, Q) = H(M) − (H(P) + H(Q)) / 2 with M = (P + Q) / 2 and H the Shannon entropy (log2).
 * Symmetric, 0 for identical distributions, 1 for distributions with no value in common. Null
 * when either side has no counts (there is nothing to compare).
 */
export function jensenShannonBits<K>(before: ReadonlyMap<K, number>, after: ReadonlyMap<K, number>): number | null {
  const p = normalise(before);
  const q = normalise(after);
  if (!p || !q) return null;
  let divergence = 0;
  for (const key of new Set([...p.keys(), ...q.keys()])) {
    const pk = p.get(key) ?? 0;
    const qk = q.get(key) ?? 0;
    const mk = (pk + qk) / 2;
    // Σ ½·p·log2(p/m) + ½·q·log2(q/m); terms with a zero share contribute nothing.
    if (pk > 0) divergence += (pk / 2) * Math.log2(pk / mk);
    if (qk > 0) divergence += (qk / 2) * Math.log2(qk / mk);
  }
  // Rounding can leave a hair outside [0, 1].
  return Math.min(1, Math.max(0, divergence));
}

/** Shares summing to 1, or undefined without any count. */
export function normalise<K>(counts: ReadonlyMap<K, number>): Map<K, number> | undefined {
  let total = 0;
  for (const count of counts.values()) total += count;
  if (total <= 0) return undefined;
  const shares = new Map<K, number>();
  for (const [key, count] of counts) if (count > 0) shares.set(key, count / total);
  return shares;
}
