/** One stage of a shutdown: parts closed together; a stage starts once the one before has settled. */
export type CloseStage = ReadonlyArray<() => unknown>;

/**
 * Closes `stages` in order. A part that fails does not keep the later ones open (a process that
 * exits with the sentence encoder's thread inside an onnxruntime run aborts, so the encoder must
 * close whatever failed before it); the first failure is thrown once every stage has settled.
 */
export async function closeInStages(stages: readonly CloseStage[]): Promise<void> {
  const failures: unknown[] = [];
  for (const stage of stages) {
    const settled = await Promise.allSettled(stage.map(async (close) => close()));
    for (const result of settled) if (result.status === 'rejected') failures.push(result.reason);
  }
  if (failures.length > 0) throw failures[0];
}
