/**
 * The router's scalar features by their wire (snake_case) names, in the order its record lists
 * them: what `/v1/classify_complexity` answers and a decision row's `details.features` holds.
 * The one home of the names: `@svc/router` builds the record from this list (its `RequestFeatures`
 * is checked against it at compile time) and `@svc/db` packs the record by it (format `f1`, so a
 * change here is a new stored format: the store keeps reading the rows already written).
 */
export const SCALAR_FEATURE_NAMES = [
  'code', 'math', 'markup', 'non_ascii', 'reasoning_words', 'constraint_words', 'numbers', 'choices', 'long_words', 'negations', 'question_marks', 'lines',
  'numeric_options', 'math_symbols', 'writing_hits', 'writing_verbs', 'question', 'extraction_hits', 'translation_hits', 'analysis_hits', 'chat_hits',
  'code_hits', 'math_hits', 'words', 'total_chars', 'prompt_tokens', 'last_user_chars', 'turns', 'has_system', 'tools', 'json', 'vision', 'audio', 'reasoning_effort',
] as const;

export type ScalarFeatureName = (typeof SCALAR_FEATURE_NAMES)[number];
