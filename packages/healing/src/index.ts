export { changeConfidence, confidenceOf, meaningChangingKinds } from './confidence.js';
export type { SchemaValidatorSettings } from './schema-validators.js';
export type * from './types.js';
export {
  type OutputVerifier,
  type OutputVerifierSettings,
  type VerifyOptions,
  createOutputVerifier,
  verifyJsonOutput,
} from './verify-json-output.js';
