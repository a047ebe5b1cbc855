import { type PolicySnapshot, PolicySnapshotError, fromBase64, toBase64 } from './policy.js';

/** Inverts the n x n row-major matrix `m` (Gauss-Jordan with partial pivoting); throws when singular. */
function invert(m: readonly number[], n: number): number[] {
  const a = Float64Array.from(m);
  const inv = new Float64Array(n * n);
  for (let i = 0; i < n; i++) inv[i * n + i] = 1;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r * n + col]!) > Math.abs(a[pivot * n + col]!)) pivot = r;
    const p = a[pivot * n + col]!;
    if (!(Math.abs(p) > 1e-300)) throw new PolicySnapshotError('policy snapshot: an arm matrix is singular');
    if (pivot !== col) {
      for (let j = 0; j < n; j++) {
        [a[col * n + j], a[pivot * n + j]] = [a[pivot * n + j]!, a[col * n + j]!];
        [inv[col * n + j], inv[pivot * n + j]] = [inv[pivot * n + j]!, inv[col * n + j]!];
      }
    }
    for (let j = 0; j < n; j++) {
      a[col * n + j]! /= p;
      inv[col * n + j]! /= p;
    }
    for (let r = 0; r < n; r++) {
      const f = a[r * n + col]!;
      if (r === col || f === 0) continue;
      for (let j = 0; j < n; j++) {
        a[r * n + j]! -= f * a[col * n + j]!;
        inv[r * n + j]! -= f * inv[col * n + j]!;
      }
    }
  }
  return Array.from(inv);
}

const plusDelta = (shared: readonly number[], base: readonly number[], local: readonly number[]) => shared.map((s, i) => s + local[i]! - base[i]!);

/** `shared + local - base` of three success-model vectors ({@link toBase64} encoded, of one length). */
function base64PlusDelta(shared: string, base: string, local: string, what: string): string {
  const length = Buffer.byteLength(shared, 'base64') / 4;
  const [s, b, l] = [fromBase64(shared, length, what), fromBase64(base, length, what), fromBase64(local, length, what)];
  for (let i = 0; i < length; i++) s[i]! += l[i]! - b[i]!;
  return toBase64(s);
}

function sameShape(a: PolicySnapshot, b: PolicySnapshot): boolean {
  const d = a.context;
  const armsFit = (s: PolicySnapshot) => Array.isArray(s.arms) && s.arms.every((arm) => arm.aInv?.length === d * d && arm.b?.length === d && Number.isInteger(arm.n));
  return (
    a.version === b.version &&
    a.dimension === b.dimension &&
    a.context === b.context &&
    a.buckets === b.buckets &&
    a.arms.length === b.arms.length &&
    armsFit(a) &&
    armsFit(b) &&
    typeof a.success?.weights === 'string' &&
    typeof b.success?.weights === 'string' &&
    typeof a.models === 'object' &&
    typeof b.models === 'object'
  );
}

/**
 * `shared` plus what `local` learned since `base` (the snapshot `local` last synchronised with):
 * how instances that learn from different traffic combine their learning instead of the last
 * writer's weights replacing everyone else's.
 *
 * The LinUCB arms are sums over outcomes (A = ridge I + sum x x^T, b = sum r x, n): the merge is
 * A_shared + (A_local - A_base), inverted back, and b and n likewise, so their request-feature
 * part is what one process learning every outcome would hold, in any order (the context's last
 * entry, the success model's estimate when the outcome was learned, depends on that order in one
 * process too).
 * Per-model residual means merge through their sums and counts. The success models' AdaGrad
 * weights and squared-gradient sums add their deltas, as asynchronous SGD does: an
 * approximation of learning everything in one process, not an exact one.
 *
 * @throws PolicySnapshotError when the snapshots are of different shapes (another build) or an
 *   arm's matrix cannot be inverted.
 */
export function mergePolicySnapshots(shared: PolicySnapshot, base: PolicySnapshot, local: PolicySnapshot): PolicySnapshot {
  if (!sameShape(shared, base) || !sameShape(shared, local)) throw new PolicySnapshotError('policy snapshots of different shapes cannot be merged');
  const d = shared.context;
  const arms = shared.arms.map((arm, t) => {
    const [b0, l0] = [base.arms[t]!, local.arms[t]!];
    const a = plusDelta(invert(arm.aInv, d), invert(b0.aInv, d), invert(l0.aInv, d));
    return { aInv: invert(a, d), b: plusDelta(arm.b, b0.b, l0.b), n: arm.n + Math.max(0, l0.n - b0.n) };
  });
  const models: PolicySnapshot['models'] = { ...shared.models };
  for (const [id, mine] of Object.entries(local.models)) {
    const before = base.models[id] ?? { n: 0, mean: 0 };
    const addedN = mine.n - before.n;
    if (addedN <= 0) continue;
    const addedSum = mine.n * mine.mean - before.n * before.mean;
    const theirs = models[id] ?? { n: 0, mean: 0 };
    const n = theirs.n + addedN;
    models[id] = { n, mean: (theirs.n * theirs.mean + addedSum) / n };
  }
  return {
    version: shared.version,
    dimension: shared.dimension,
    context: d,
    buckets: shared.buckets,
    arms,
    models,
    success: {
      weights: base64PlusDelta(shared.success.weights, base.success.weights, local.success.weights, 'success.weights'),
      squares: base64PlusDelta(shared.success.squares, base.success.squares, local.success.squares, 'success.squares'),
      n: shared.success.n.map((n, t) => n + Math.max(0, (local.success.n[t] ?? 0) - (base.success.n[t] ?? 0))),
    },
  };
}
