import type { Item } from './data.js';

/** Number of folds over the subject groups. */
export const folds = 5;

/** Subject groups of fold `f`: every `folds`-th group in sorted order, so a dev prompt's subject is never trained on. */
export function foldGroups(items: readonly Item[], f: number): Set<string> {
  const groups = [...new Set(items.map((i) => i.group))].sort();
  return new Set(groups.filter((_, i) => i % folds === f));
}

export interface Split {
  train: Item[];
  trainVectors: Float32Array[];
  dev: Item[];
  devVectors: Float32Array[];
}

/** Items whose group is held out go to dev, the rest to train (`trainSources` limits the training sources). */
export function split(items: readonly Item[], vectors: readonly Float32Array[], heldOut: ReadonlySet<string>, trainSources?: ReadonlySet<string>): Split {
  const out: Split = { train: [], trainVectors: [], dev: [], devVectors: [] };
  items.forEach((item, i) => {
    if (heldOut.has(item.group)) {
      out.dev.push(item);
      out.devVectors.push(vectors[i]!);
    } else if (!trainSources || trainSources.has(item.source)) {
      out.train.push(item);
      out.trainVectors.push(vectors[i]!);
    }
  });
  return out;
}
