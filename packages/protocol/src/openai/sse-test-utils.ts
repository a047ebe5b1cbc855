/** Test helpers: split encoder output into frames and check the openai SDK's stream rules. */

export type Frame = { done: true } | { done: false; chunk: Chunk } | { comment: string };

export interface Chunk {
  id?: string;
  object?: string;
  created?: number;
  model?: string;
  choices: {
    index: number;
    delta: Record<string, unknown> & {
      role?: string;
      content?: string;
      tool_calls?: { index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
    logprobs?: unknown;
  }[];
  usage?: Record<string, unknown>;
  svc_metadata?: Record<string, unknown>;
  error?: Record<string, unknown>;
}

/** Parses SSE text into frames, failing on anything an SSE client would choke on. */
export function parseFrames(text: string): Frame[] {
  if (!text.endsWith('\n\n') && text !== '') throw new Error(`unterminated frame: ${JSON.stringify(text)}`);
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame): Frame => {
      if (frame.startsWith(':')) return { comment: frame.slice(1).trim() };
      if (!frame.startsWith('data: ') || frame.includes('\n')) throw new Error(`bad frame: ${frame}`);
      const data = frame.slice('data: '.length);
      if (data === '[DONE]') return { done: true };
      return { done: false, chunk: JSON.parse(data) as Chunk };
    });
}

export function chunksOf(frames: Frame[]): Chunk[] {
  return frames.flatMap((frame) => ('chunk' in frame ? [frame.chunk] : []));
}

/**
 * The rules of openai's ChatCompletionStream (see CLIENT_BEHAVIOURS.md §6): role before
 * anything else, exactly one finish_reason per choice, a usage chunk with `choices: []`.
 * Returns the accumulated content per choice.
 */
export function checkOpenAIRules(chunks: Chunk[]): Map<number, { content: string; finish: string }> {
  const seen = new Map<number, { role: boolean; content: string; finishes: string[] }>();
  for (const chunk of chunks) {
    if (chunk.object !== 'chat.completion.chunk') throw new Error('object must be chat.completion.chunk');
    for (const choice of chunk.choices) {
      const state = seen.get(choice.index) ?? { role: false, content: '', finishes: [] };
      seen.set(choice.index, state);
      if (choice.delta.role !== undefined) state.role = true;
      if (!state.role) throw new Error(`choice ${choice.index} got a delta before its role`);
      state.content += choice.delta.content ?? '';
      if (choice.finish_reason !== null) state.finishes.push(choice.finish_reason);
    }
    if (chunk.usage !== undefined && chunk.choices.length !== 0) throw new Error('usage chunk must have choices: []');
  }
  const out = new Map<number, { content: string; finish: string }>();
  for (const [index, state] of seen) {
    if (state.finishes.length !== 1) throw new Error(`choice ${index} has ${state.finishes.length} finish_reasons`);
    out.set(index, { content: state.content, finish: state.finishes[0]! });
  }
  return out;
}
