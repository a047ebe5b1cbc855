import type { HealerReport } from '@svc/core';

/**
 * How far verification had to go: 0 valid as is, 1 syntactic repair, 2 schema-aware coercion,
 * 3 still invalid (the caller may re-ask).
 */
export type VerifyStage = 0 | 1 | 2 | 3;

/** One thing healing did to the answer, in the order it was done. */
export type HealingChangeKind =
  /** The JSON was wrapped in a markdown code fence and nothing else. */
  | 'strip_fence'
  /** Prose before or after the JSON (or around its fence) was dropped. */
  | 'strip_prose'
  /** The answer was a JSON string holding the JSON text (double-encoded). */
  | 'unwrap_string'
  /** The JSON-repair library changed tokens: quotes, commas, comments, Python literals... */
  | 'repair_syntax'
  /** The answer stopped mid-value and brackets or quotes were added to close it. Meaning at risk. */
  | 'complete_truncated'
  /** A value the model never wrote became `null` (e.g. `{"a": }`). Meaning at risk. */
  | 'fill_null'
  /** A scalar of the wrong type was converted without loss: `"42"` -> 42, `"true"` -> true, 7 -> "7". */
  | 'coerce_type'
  /** A single value was put in an array where the schema wants an array. */
  | 'wrap_array'
  /** A one-element array was replaced by its element where the schema wants a scalar. */
  | 'unwrap_array'
  /** A string matched exactly one allowed `enum` value but for letter case or surrounding spaces. */
  | 'match_enum_case'
  /** A property the schema does not allow was removed (`additionalProperties: false`, strict mode). */
  | 'drop_property';

export interface HealingChange {
  kind: HealingChangeKind;
  /** JSON Pointer of the value changed, for schema-aware changes (`''` is the whole answer). */
  path?: string;
  /** Human-readable before -> after, for logs. */
  detail?: string;
}

/** Why an answer does not satisfy its response format. */
export interface VerificationIssue {
  /** JSON Pointer of the offending value (`''` is the whole answer). */
  path: string;
  /** JSON Schema keyword that failed (ajv's), or `parse`, `type` at the root, `truncated`. */
  keyword: string;
  /** What is wrong, phrased so a model can act on it. */
  message: string;
}

export interface VerifyResult {
  /** The answer (after healing, when healing applied) satisfies the response format. */
  valid: boolean;
  stage: VerifyStage;
  /**
   * The text to hand to the caller: the healed JSON at stages 1 and 2, the original text at stages
   * 0 and 3 (an answer that could not be made valid is never partially rewritten).
   */
  text: string;
  /** The parsed answer when `valid`. */
  value?: unknown;
  /** Present exactly when `text` differs from the original (stages 1 and 2). */
  report?: HealerReport;
  /** What healing did, in order. Empty at stage 0. */
  changes: HealingChange[];
  /** Problems of the answer as the model gave it (before coercion). Empty when `valid`. */
  issues: VerificationIssue[];
  /**
   * True when a change may alter what the model meant: a truncated answer closed by brackets or a
   * missing value turned into `null`. The answer is still returned (and may be `valid`) so the caller
   * can decide; the report's confidence is low.
   */
  meaningAtRisk: boolean;
  /** 1 at stage 0, the report's confidence at stages 1-2, 0 at stage 3. */
  confidence: number;
  /** A `json_schema` format whose schema could not be used (too large, too deep or invalid): verified as `json_object`. */
  schemaUnusable?: string;
}
