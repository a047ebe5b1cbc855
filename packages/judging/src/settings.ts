import * as v from 'valibot';
import { type JudgeAgreement, type JudgeErrorRate, MAX_JUDGE_ERROR_RATE, judgeErrorRate } from './judge-error.js';

/** Most candidate models an organisation may list. */
export const MAX_CANDIDATES = 8;

const slug = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'is at most 200 characters'));

/**
 * An organisation's shadow judging as the admin API takes it (snake_case, strict: an unknown
 * field is refused, never ignored). `candidate_models` absent or null: the served model's cheaper
 * models of the same pool (docs/routing.md, "Shadow judging").
 */
export const shadowSettingsEntries = {
  enabled: v.boolean('must be true or false'),
  sample_rate: v.pipe(v.number('must be a number'), v.minValue(0, 'must be at least 0'), v.maxValue(1, 'must be at most 1')),
  candidate_models: v.optional(
    v.nullable(v.pipe(v.array(slug, 'must be an array of model slugs'), v.minLength(1, 'must name a model (null: cheaper models of the pool)'), v.maxLength(MAX_CANDIDATES, `at most ${MAX_CANDIDATES} models`))),
  ),
  judge_model: slug,
  daily_budget_usd: v.pipe(v.number('must be a number'), v.minValue(0, 'must be at least 0'), v.maxValue(1_000_000, 'must be at most 1000000')),
  /** The share of the judge's verdicts the learner assumes wrong; absent or null: estimated from feedback, else the default. */
  judge_error_rate: v.optional(
    v.nullable(v.pipe(v.number('must be a number'), v.minValue(0, 'must be at least 0'), v.maxValue(MAX_JUDGE_ERROR_RATE, `must be at most ${MAX_JUDGE_ERROR_RATE}`))),
  ),
  /** The router's cautious start for the organisation's task kinds (docs/routing.md, "A cautious start"); absent: on (`DEFAULT_CAUTIOUS_START`). */
  cautious_start: v.optional(v.boolean('must be true or false')),
};

/** An organisation's cautious start when it never set `cautious_start` (or never set shadow judging): on. */
export const DEFAULT_CAUTIOUS_START = true;

export const shadowSettingsSchema = v.strictObject(shadowSettingsEntries);

/** The wire (and stored) shape. */
export type ShadowSettingsWire = v.InferOutput<typeof shadowSettingsSchema>;

/** An organisation's shadow judging, read once per sampled request. */
export interface ShadowSettings {
  enabled: boolean;
  sampleRate: number;
  /** Undefined: the served model's three closest cheaper models of the same pool and its closest pricier one. */
  candidateModels: readonly string[] | undefined;
  judgeModel: string;
  dailyBudgetUsd: number;
  /** The share of verdicts the learner assumes wrong, as set; undefined: estimated (`judgeError`). */
  judgeErrorRate: number | undefined;
  /** The share the learner uses: the setting, else estimated from feedback, else the default. */
  judgeError: JudgeErrorRate;
  /** Whether the router's learner gives the organisation's task kinds a cautious start (`cautious_start`, default on). */
  cautiousStart: boolean;
}

/** The key of `org_settings.settings` that holds shadow judging. */
export const SHADOW_SETTINGS_KEY = 'shadow_judging';

/**
 * The stored document as settings; undefined (off) when absent or not valid. `agreement`: the
 * organisation's judged pairs read against feedback, for the estimate when no rate is set.
 */
export function readShadowSettings(stored: Record<string, unknown>, agreement?: JudgeAgreement): ShadowSettings | undefined {
  const parsed = v.safeParse(shadowSettingsSchema, stored[SHADOW_SETTINGS_KEY]);
  if (!parsed.success) return undefined;
  const wire = parsed.output;
  return {
    enabled: wire.enabled,
    sampleRate: wire.sample_rate,
    candidateModels: wire.candidate_models ?? undefined,
    judgeModel: wire.judge_model,
    dailyBudgetUsd: wire.daily_budget_usd,
    judgeErrorRate: wire.judge_error_rate ?? undefined,
    judgeError: judgeErrorRate(wire.judge_error_rate ?? undefined, agreement),
    cautiousStart: wire.cautious_start ?? DEFAULT_CAUTIOUS_START,
  };
}

/** Whether an organisation's kinds get the cautious start: its setting, on when it never set shadow judging (`settings` undefined). */
export function cautiousStartOf(settings: ShadowSettings | undefined): boolean {
  return settings?.cautiousStart ?? DEFAULT_CAUTIOUS_START;
}
