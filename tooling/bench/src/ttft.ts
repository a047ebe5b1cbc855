import { percentile } from './percentiles.js';

/**
 * Finds the first content token in an OpenAI chat completions stream fed chunk by chunk: the first
 * `data:` event whose `choices[0].delta.content` is a non-empty string (the role chunk and the
 * usage chunk carry none). Events may be split across chunks.
 */
export class FirstContent {
  #pending = '';
  #found = false;

  /** Feed the next chunk of the body; true once the first content token has arrived (in this chunk or before). */
  push(chunk: string): boolean {
    if (this.#found) return true;
    this.#pending += chunk;
    let end = this.#pending.indexOf('\n');
    while (end >= 0) {
      const line = this.#pending.slice(0, end).trim();
      this.#pending = this.#pending.slice(end + 1);
      if (hasContent(line)) {
        this.#found = true;
        return true;
      }
      end = this.#pending.indexOf('\n');
    }
    return false;
  }
}

function hasContent(line: string): boolean {
  if (!line.startsWith('data:')) return false;
  const data = line.slice(5).trim();
  if (data === '' || data === '[DONE]') return false;
  try {
    const event = JSON.parse(data) as { choices?: { delta?: { content?: unknown } }[] };
    const content = event.choices?.[0]?.delta?.content;
    return typeof content === 'string' && content.length > 0;
  } catch {
    return false;
  }
}

/** Time to first token of one target over its requests, ms. */
export interface TtftSummary {
  count: number;
  p50: number;
  p90: number;
  max: number;
}

/** Median, p90 and max of first-token times (ms, any order); NaN when empty. */
export function ttftSummary(samples: readonly number[]): TtftSummary {
  const sorted = Float64Array.from(samples).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    max: sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] as number),
  };
}

/** What a gateway adds to the upstream's own time to first token (its figure minus `direct`'s), ms. */
export function ttftAdded(target: TtftSummary, direct: TtftSummary | undefined): { p50: number; p90: number } | undefined {
  if (!direct || target.count === 0 || direct.count === 0) return undefined;
  return { p50: target.p50 - direct.p50, p90: target.p90 - direct.p90 };
}
