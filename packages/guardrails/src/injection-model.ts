import { type InjectionModel, INJECTION_BUCKETS, injectionProbability } from './injection-features.js';
import { INJECTION_WEIGHTS } from './injection-weights.js';

let shipped: InjectionModel | undefined;

/** The trained reader (`injection-weights.ts`), decoded on first use. */
export function shippedInjectionModel(): InjectionModel {
  if (!shipped) {
    const bytes = Buffer.from(INJECTION_WEIGHTS.weights, 'base64');
    const weights = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    if (weights.length !== INJECTION_BUCKETS) throw new Error(`injection-weights.ts holds ${weights.length} weights, not ${INJECTION_BUCKETS}`);
    shipped = { weights, bias: INJECTION_WEIGHTS.bias };
  }
  return shipped;
}

/** P(injection) of a text under the shipped reader. */
export const learnedInjectionProbability = (text: string): number => injectionProbability(shippedInjectionModel(), text);
