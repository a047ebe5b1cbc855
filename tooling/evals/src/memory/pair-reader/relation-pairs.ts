/**
 * Templated "does B replace A" pairs from the **tuning** attributes only: `updates-tuning.jsonl`,
 * `updates-tuning-2.jsonl` and the `dev` attributes of `updates.jsonl`, their statement and update
 * forms filled with their values (no question form, no held-out attribute). B is a later statement
 * of attribute X (an update form, or a statement form with another wording); A is a statement of X
 * with another value (positive) or a statement of another attribute of the same holder, else of any
 * (negative). Shared by the relation reader (`relation-dump.ts`) and the attention reader
 * (`attention-dump.ts`), so both are fitted on the same pairs.
 */
import { seededRandom } from '@svc/core';
import { loadUpdateAttributes } from '../updates-data.js';

export interface RelationPair { a: string; b: string; y: number; attrA: string; attrB: string; file: string; kind: 'update' | 'state' }

export const TUNING_FILES = ['updates-tuning.jsonl', 'updates-tuning-2.jsonl', 'updates.jsonl'] as const;

/** Every templated pair, in a fixed order (seeded). */
export function templatedPairs(): RelationPair[] {
  const attributes = TUNING_FILES.flatMap((file) => loadUpdateAttributes(file).filter((a) => a.split === 'dev').map((a) => ({ ...a, file })));
  const random = seededRandom(35);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const fill = (form: string, value: string) => form.replaceAll('{v}', value);
  const pairs: RelationPair[] = [];
  for (const x of attributes) {
    const others = attributes.filter((o) => o.attribute !== x.attribute);
    const sameHolder = others.filter((o) => o.holder === x.holder);
    for (const [kind, forms] of [['update', x.updates], ['state', x.states]] as const)
      for (const form of forms)
        for (const value of x.values) {
          const b = fill(form, value);
          for (let i = 0; i < 3; i++) {
            const states = kind === 'state' ? x.states.filter((s) => s !== form) : x.states;
            pairs.push({ a: fill(pick(states), pick(x.values.filter((v) => v !== value))), b, y: 1, attrA: x.attribute, attrB: x.attribute, file: x.file, kind });
          }
          for (let i = 0; i < 6; i++) {
            const y = pick(i < 4 && sameHolder.length > 0 ? sameHolder : others);
            pairs.push({ a: fill(pick(y.states), pick(y.values)), b, y: 0, attrA: y.attribute, attrB: x.attribute, file: x.file, kind });
          }
        }
  }
  return pairs;
}
