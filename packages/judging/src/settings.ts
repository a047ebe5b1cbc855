import * as v from 'valibot';

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
};

export const shadowSettingsSchema = v.strictObject(shadowSettingsEntries);

/** The wire (and stored) shape. */
export type ShadowSettingsWire = v.InferOutput<typeof shadowSettingsSchema>;

/** An organisation's shadow judging, read once per sampled request. */
export interface ShadowSettings {
  enabled: boolean;
  sampleRate: number;
  /** Undefined: the served model's cheaper models of the same pool. */
  candidateModels: readonly string[] | undefined;
  judgeModel: string;
  dailyBudgetUsd: number;
}

/** The key of `org_settings.settings` that holds shadow judging. */
export const SHADOW_SETTINGS_KEY = 'shadow_judging';

/** The stored document as settings; undefined (off) when absent or not valid. */
export function readShadowSettings(stored: Record<string, unknown>): ShadowSettings | undefined {
  const parsed = v.safeParse(shadowSettingsSchema, stored[SHADOW_SETTINGS_KEY]);
  if (!parsed.success) return undefined;
  const wire = parsed.output;
  return {
    enabled: wire.enabled,
    sampleRate: wire.sample_rate,
    candidateModels: wire.candidate_models ?? undefined,
    judgeModel: wire.judge_model,
    dailyBudgetUsd: wire.daily_budget_usd,
  };
}
