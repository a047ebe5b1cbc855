import type { ChoiceLearner } from './learner.js';
import { type ChoiceSnapshot, mergeChoiceSnapshots, parseChoiceSnapshot } from './snapshot.js';

const readable = (value: unknown): ChoiceSnapshot | undefined => {
  try {
    return parseChoiceSnapshot(value);
  } catch {
    return undefined;
  }
};

/** The learner's side of the router's save and restore: counts add, so instances merge exactly. */
export interface ChoiceSync {
  /** What to write given the stored value's `choice` (taken at the start of a save). */
  toWrite(stored: unknown): ChoiceSnapshot | undefined;
  /** After a write: the written counts plus what was learned while the store was busy become the learner's. */
  written(value: unknown): void;
  /** At a restore: the stored counts plus what this instance learned since it synchronised. */
  restored(value: unknown): void;
}

export function createChoiceSync(learner: ChoiceLearner | undefined): ChoiceSync {
  let synced: ChoiceSnapshot = learner?.serialize() ?? { version: 1, pairs: [], feedback: [] };
  let mineAtSave: ChoiceSnapshot | undefined;
  const adopt = (shared: ChoiceSnapshot, base: ChoiceSnapshot) => {
    if (!learner) return;
    learner.load(mergeChoiceSnapshots(shared, base, learner.serialize()));
    synced = shared;
  };
  return {
    toWrite(stored) {
      if (!learner) return readable(stored);
      mineAtSave = learner.serialize();
      const shared = readable(stored);
      return shared ? mergeChoiceSnapshots(shared, synced, mineAtSave) : mineAtSave;
    },
    written(value) {
      const shared = readable(value);
      if (shared && mineAtSave) adopt(shared, mineAtSave);
    },
    restored(value) {
      const shared = readable(value);
      if (shared) adopt(shared, synced);
    },
  };
}
