import type { FinishReason, HealerReport, ResponseFormat } from '@svc/core';
import type { ErrorObject } from 'ajv';
import { coerceToSchema } from './coerce-to-schema.js';
import { confidenceOf, meaningChangingKinds } from './confidence.js';
import { parseAnswer } from './parse-answer.js';
import { type SchemaValidatorSettings, createSchemaValidators } from './schema-validators.js';
import type { HealingChange, VerificationIssue, VerifyResult, VerifyStage } from './types.js';

export interface VerifyOptions {
  /** The provider's finish reason; `length` marks any repair of the answer as completing a truncation. */
  finishReason?: FinishReason;
}

export type OutputVerifierSettings = SchemaValidatorSettings;

export interface OutputVerifier {
  /** Verifies (and heals) one answer against its `response_format`; see {@link verifyJsonOutput}. */
  verify(text: string, format: ResponseFormat, options?: VerifyOptions): VerifyResult;
  /**
   * Builds the schema compiler now instead of on the first `json_schema` answer, which otherwise
   * pays for it (ajv compiles its meta-schemas once: ~150 ms on Node 20). Call at startup.
   */
  warmUp(): void;
  /** Compiled schemas held, bounded by `maxSchemas`. */
  readonly cachedSchemas: number;
}

/** Issues kept on a result; a large array failing item by item would otherwise list thousands. */
const maxIssues = 50;

/**
 * A verifier with its own bounded schema cache. One per process is the intent (the pipeline holds
 * it); nothing is compiled until the first `json_schema` answer.
 */
export function createOutputVerifier(settings: OutputVerifierSettings = {}): OutputVerifier {
  const validators = createSchemaValidators(settings);
  return {
    verify: (text, format, options = {}) => verify(text, format, options, validators),
    warmUp: () => {
      validators.get({ type: 'object' }, false);
    },
    get cachedSchemas() {
      return validators.size;
    },
  };
}

let shared: OutputVerifier | undefined;

/**
 * Checks a model's text answer against `response_format` and heals it when it can:
 * stage 0, valid as is (text untouched, no report); stage 1, the JSON was taken out of a code fence
 * or prose, or repaired by jsonrepair; stage 2, converted toward the schema without adding content;
 * stage 3, still invalid, with the issues for a re-ask. `text` formats are not checked.
 * Uses a process-wide verifier created on first call; see {@link createOutputVerifier} for settings.
 */
export function verifyJsonOutput(text: string, format: ResponseFormat, options?: VerifyOptions): VerifyResult {
  shared ??= createOutputVerifier();
  return shared.verify(text, format, options);
}

function verify(
  text: string,
  format: ResponseFormat,
  options: VerifyOptions,
  validators: ReturnType<typeof createSchemaValidators>,
): VerifyResult {
  if (format.type === 'text') return result({ valid: true, stage: 0, text });
  const started = performance.now();
  const lookup = format.type === 'json_schema' && format.schema ? validators.get(format.schema, format.strict === true) : undefined;
  const validate = lookup?.ok ? lookup.validate : undefined;
  const schemaUnusable = lookup && !lookup.ok ? lookup.reason : undefined;
  const extra = schemaUnusable ? { schemaUnusable } : {};

  const parsed = parseAnswer(text, {
    openers: format.type === 'json_schema' && format.schema && mayBeArray(format.schema) ? '{[' : '{',
    truncated: options.finishReason === 'length',
  });
  if (!parsed.ok) {
    const keyword = parsed.truncated ? 'truncated' : 'parse';
    const message = parsed.truncated
      ? `the answer is cut off before the JSON is complete (${parsed.message})`
      : `the answer is not JSON (${parsed.message})`;
    return result({ valid: false, stage: 3, text, issues: [{ path: '', keyword, message }], ...extra });
  }

  const errors = validate ? validate(parsed.value) : [];
  const issues = validate ? errors.slice(0, maxIssues).map(toIssue) : objectIssues(parsed.value);
  const finish = (stage: 1 | 2, value: unknown, healed: string, changes: HealingChange[]): VerifyResult => {
    const confidence = confidenceOf(changes);
    const report: HealerReport = { original: text, healed, stage, confidence, healing_time_ms: elapsed(started) };
    const meaningAtRisk = changes.some((change) => meaningChangingKinds.has(change.kind));
    return result({ valid: true, stage, text: healed, value, report, changes, confidence, meaningAtRisk, ...extra });
  };

  if (issues.length === 0) {
    if (parsed.changes.length === 0) return result({ valid: true, stage: 0, text, value: parsed.value, ...extra });
    return finish(1, parsed.value, parsed.text, parsed.changes);
  }
  if (validate) {
    const coerced = coerceToSchema(parsed.value, errors, validate);
    if (coerced.ok) return finish(2, coerced.value, JSON.stringify(coerced.value), [...parsed.changes, ...coerced.changes]);
  }
  const truncated = parsed.changes.some((change) => change.kind === 'complete_truncated');
  return result({ valid: false, stage: 3, text, issues: truncated ? [truncatedIssue, ...issues] : issues, ...extra });
}

const truncatedIssue: VerificationIssue = {
  path: '',
  keyword: 'truncated',
  message: 'the answer is cut off before the JSON is complete',
};

function result(fields: Partial<VerifyResult> & Pick<VerifyResult, 'valid' | 'stage' | 'text'>): VerifyResult {
  const stage: VerifyStage = fields.stage;
  return {
    changes: [],
    issues: [],
    meaningAtRisk: false,
    confidence: stage === 3 ? 0 : 1,
    ...fields,
  };
}

function objectIssues(value: unknown): VerificationIssue[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return [];
  return [{ path: '', keyword: 'type', message: 'must be a JSON object' }];
}

function toIssue(error: ErrorObject): VerificationIssue {
  let message = error.message ?? 'is invalid';
  const { additionalProperty, unevaluatedProperty, allowedValues, allowedValue } = error.params;
  if (typeof additionalProperty === 'string') message += `: '${additionalProperty}'`;
  else if (typeof unevaluatedProperty === 'string') message += `: '${unevaluatedProperty}'`;
  else if (Array.isArray(allowedValues)) message += `: ${allowedValues.map((option) => JSON.stringify(option)).join(', ')}`;
  else if (error.keyword === 'const') message += `: ${JSON.stringify(allowedValue)}`;
  return { path: error.instancePath, keyword: error.keyword, message };
}

/** Whether the schema lets the answer be an array (so `[` may start the JSON in prose). */
function mayBeArray(schema: Record<string, unknown>): boolean {
  const type = schema['type'];
  if (type === 'array') return true;
  if (Array.isArray(type)) return type.includes('array');
  return type === undefined && schema['properties'] === undefined;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}
