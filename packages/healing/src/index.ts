export { changeConfidence, confidenceOf, meaningChangingKinds } from './confidence.js';
export { type CorrectionInput, buildCorrectionMessages, correctionInstruction } from './correction-messages.js';
export { type HealOptions, type HealedChoice, type HealedResult, healChatResult, healChoice } from './heal-choice.js';
export type { SchemaValidatorSettings } from './schema-validators.js';
export type * from './types.js';
export {
  type Reask,
  type VerificationPlan,
  type VerificationPolicyInput,
  planVerification,
  reaskNeeded,
} from './verification-policy.js';
export {
  type OutputVerifier,
  type OutputVerifierSettings,
  type VerifyOptions,
  createOutputVerifier,
  verifyJsonOutput,
} from './verify-json-output.js';
