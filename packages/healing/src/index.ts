export { changeConfidence, confidenceOf, meaningChangingKinds } from './confidence.js';
export type * from './types.js';
