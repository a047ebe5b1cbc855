/**
 * Test support: fast-check arbitraries of upstream answers, cut into the fragments a provider
 * streams (empty fragments included) and, where the wire allows it, interleaved.
 */
import type { AnswerToolCall, UpstreamAnswer, WireCarries } from '@svc/providers/test';
import fc from 'fast-check';

/** `text` cut at `cuts` (positions in code units, sorted; repeated cuts make empty fragments). */
export function cut(text: string, cuts: readonly number[]): string[] {
  const at = [...cuts].map((position) => Math.min(position, text.length)).sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const position of at) {
    out.push(text.slice(from, position));
    from = position;
  }
  out.push(text.slice(from));
  return out;
}

/** A text and where it is cut: any code unit may be a boundary, even inside a surrogate pair. */
const fragmented = (text: fc.Arbitrary<string>): fc.Arbitrary<string[]> =>
  text.chain((value) => fc.array(fc.nat({ max: value.length }), { maxLength: 6 }).map((cuts) => cut(value, cuts)));

const texts = fc.string({ unit: 'binary', maxLength: 120 });

/** Tool arguments: a JSON object, compact or indented (the bytes must pass through as they are). */
const argumentsText = fc
  .tuple(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }), fc.boolean(), fc.oneof({ weight: 9, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.string({ minLength: 2000, maxLength: 20_000 }) }))
  .map(([object, indent, big]) => JSON.stringify(big === '' ? object : { ...object, blob: big }, null, indent ? 2 : undefined));

const toolCall = (index: number, fragments: boolean): fc.Arbitrary<AnswerToolCall> =>
  fc.record({
    id: fc.constant(`call_${index}_${'x'.repeat(index)}`),
    name: fc.constantFrom('get_weather', 'get_time', 'search', 'run_sql', 'write_file'),
    fragments: fragments ? fragmented(argumentsText) : argumentsText.map((text) => [text]),
  });

/** Answers a wire with `carries` can send. */
export function answerArbitrary(carries: WireCarries): fc.Arbitrary<UpstreamAnswer> {
  const calls = fc.nat({ max: 4 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => toolCall(index, carries.fragments))));
  const finishes = carries.contentFilter ? (['stop', 'length', 'content_filter'] as const) : (['stop', 'length'] as const);
  return fc
    .record({
      reasoning: fc.oneof(fc.constant([]), fragmented(texts)),
      text: fc.oneof(fc.constant([]), fragmented(texts)),
      refusal: carries.refusal ? fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fragmented(texts) }) : fc.constant([]),
      calls: calls as fc.Arbitrary<AnswerToolCall[]>,
      finish: fc.constantFrom(...finishes),
      usage: fc.record({
        input: fc.nat({ max: 100_000 }),
        output: fc.nat({ max: 10_000 }),
        cacheRead: carries.cacheRead ? fc.nat({ max: 100_000 }) : fc.constant(0),
        cacheWrite: carries.cacheWrite ? fc.nat({ max: 100_000 }) : fc.constant(0),
      }),
      interleave: carries.interleaving ? fc.array(fc.nat(), { maxLength: 80 }) : fc.constant([]),
    })
    // A model that refuses writes no content (OpenAI's `refusal` replaces it).
    .map((answer) => ({ ...answer, text: answer.refusal.length > 0 ? [] : answer.text, finish: answer.calls.length > 0 ? 'tool_calls' : answer.finish }));
}
