/** A padded batch in the graph's input layout: `[count, sequence]` int64, row-major. */
export interface TokenBatch {
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  count: number;
  sequence: number;
}

/** Right-pads token rows to the longest (pad id 0, mask 0). */
export function padBatch(rows: readonly number[][]): TokenBatch {
  const sequence = Math.max(...rows.map((ids) => ids.length));
  const inputIds = new BigInt64Array(rows.length * sequence);
  const attentionMask = new BigInt64Array(rows.length * sequence);
  rows.forEach((ids, row) => {
    for (let i = 0; i < ids.length; i++) {
      inputIds[row * sequence + i] = BigInt(ids[i]!);
      attentionMask[row * sequence + i] = 1n;
    }
  });
  return { inputIds, attentionMask, count: rows.length, sequence };
}

/**
 * Splits rows into runs of similar length whose padded size (rows x longest) stays within
 * `maxTokens`, always at least one row per run. Sorting first means short texts are not padded
 * to a long neighbour, and the budget bounds the attention tensors (rows x heads x length^2),
 * hence onnxruntime's arena, whatever mix of lengths a batch brings. Returns row indices.
 */
export function planRuns(lengths: readonly number[], maxTokens: number): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]!);
  const runs: number[][] = [];
  let run: number[] = [];
  for (const index of order) {
    // Sorted ascending, so the newest row is the run's longest.
    if (run.length > 0 && (run.length + 1) * lengths[index]! > maxTokens) {
      runs.push(run);
      run = [];
    }
    run.push(index);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
