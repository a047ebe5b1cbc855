import type { Item } from './data.js';

/** Number of folds over the subject groups. */
export const folds = 5;

/** One held-out dev set: its name and which items it holds. */
export interface Fold {
  name: string;
  heldOut: (item: Item) => boolean;
}

/** Subject groups of fold `f`: every `folds`-th group in sorted order, so a dev prompt's subject is never trained on. */
export function foldGroups(items: readonly Item[], f: number): Set<string> {
  const groups = [...new Set(items.map((i) => i.group))].sort();
  return new Set(groups.filter((_, i) => i % folds === f));
}

/** Fold `f` over subject groups (every source's prompts of those groups held out). */
export function groupFold(items: readonly Item[], f: number): Fold {
  const groups = foldGroups(items, f);
  return { name: `fold ${f} (${[...groups].join(', ')})`, heldOut: (item) => groups.has(item.group) };
}

/**
 * Fold `f` over prompts: every `folds`-th prompt of each source (in load order) held out, the rest of
 * every source trained on: in-domain dev sets, to tell what a source's own labels teach about unseen
 * prompts of its kind from what transfers across sources.
 */
export function promptFold(items: readonly Item[], f: number): Fold {
  const position = new Map<Item, number>();
  const seen = new Map<string, number>();
  for (const item of items) {
    const n = seen.get(item.source) ?? 0;
    position.set(item, n);
    seen.set(item.source, n + 1);
  }
  return { name: `prompt fold ${f}`, heldOut: (item) => (position.get(item) ?? -1) % folds === f };
}

/** Leave-one-source-out: every prompt of `source` held out, the model trained on the other sources only. */
export function sourceFold(source: string): Fold {
  return { name: `held-out source ${source}`, heldOut: (item) => item.source === source };
}

export interface Split {
  train: Item[];
  trainVectors: Float32Array[];
  dev: Item[];
  devVectors: Float32Array[];
}

/** Items the fold holds out go to dev, the rest to train (`trainSources` limits the training sources). */
export function split(items: readonly Item[], vectors: readonly Float32Array[], fold: Fold, trainSources?: ReadonlySet<string>): Split {
  const out: Split = { train: [], trainVectors: [], dev: [], devVectors: [] };
  items.forEach((item, i) => {
    if (fold.heldOut(item)) {
      out.dev.push(item);
      out.devVectors.push(vectors[i]!);
    } else if (!trainSources || trainSources.has(item.source)) {
      out.train.push(item);
      out.trainVectors.push(vectors[i]!);
    }
  });
  return out;
}
