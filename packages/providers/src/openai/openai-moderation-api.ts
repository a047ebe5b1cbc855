import * as v from 'valibot';

/*
 * Minimal schema of the OpenAI `/moderations` answer: what the gateway relies on is checked, the
 * per-category tables are passed through as the upstream sent them (new categories appear).
 */
export const openAIModerationResponseSchema = v.object({
  id: v.string(),
  model: v.nullish(v.string()),
  results: v.array(
    v.object({
      flagged: v.boolean(),
      categories: v.record(v.string(), v.boolean()),
      category_scores: v.record(v.string(), v.number()),
      category_applied_input_types: v.optional(v.record(v.string(), v.array(v.string()))),
    }),
  ),
});
