import * as v from 'valibot';

const positive = v.pipe(v.number(), v.integer(), v.minValue(1));

/** The fields of a Hugging Face BERT `config.json` the graph depends on. */
export const bertConfigSchema = v.object({
  model_type: v.literal('bert'),
  hidden_act: v.literal('gelu'),
  position_embedding_type: v.optional(v.literal('absolute')),
  hidden_size: positive,
  intermediate_size: positive,
  num_attention_heads: positive,
  num_hidden_layers: positive,
  max_position_embeddings: positive,
  type_vocab_size: positive,
  vocab_size: positive,
  layer_norm_eps: v.pipe(v.number(), v.minValue(0)),
});

export type BertConfig = v.InferOutput<typeof bertConfigSchema>;

/** Validates a parsed `config.json`; throws one line naming the first field that is off. */
export function parseBertConfig(json: unknown): BertConfig {
  const result = v.safeParse(bertConfigSchema, json);
  if (result.success) {
    if (result.output.hidden_size % result.output.num_attention_heads !== 0) throw new Error('config.json: hidden_size is not a multiple of num_attention_heads');
    return result.output;
  }
  const issue = result.issues[0];
  throw new Error(`config.json: ${v.getDotPath(issue) ?? 'root'}: ${issue.message}`);
}
