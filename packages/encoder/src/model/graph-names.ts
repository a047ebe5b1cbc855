/**
 * Names of the graph's tensors: `input_ids`/`attention_mask` int64 `[batch, sequence]` in,
 * `embeddings` float `[batch, hidden]` out, and `token_states` float `[batch, sequence, hidden]`
 * (the last block's output that the mean pooling reads; fetched only when asked for). Apart from
 * the graph's builder, which the inference thread loads only when no prebuilt graph fits.
 */
export const graphNames = { inputIds: 'input_ids', attentionMask: 'attention_mask', output: 'embeddings', tokenStates: 'token_states', pairFeatures: 'pair_features' } as const;
