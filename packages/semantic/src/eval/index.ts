// What the evaluations in tooling/evals share with this package's own (the hashed verifier's):
// the data sets, the split, the metrics and GPTCache's protocol through the production lookup.
export { findDataDir, loadParaphrases, loadQqp, type ParaphrasePair, type QqpPair } from './dataset.js';
export { type Decider, type Outcome, type ProtocolCounts, runGptCacheProtocol } from './gptcache-protocol.js';
export { labelCeiling } from './label-ceiling.js';
export { type LookupCost, measureLookupCost } from './lookup-cost.js';
export { at, curve, type Operating, proportionInterval, type Scored } from './metrics.js';
export { splitByQuestion } from './split.js';
