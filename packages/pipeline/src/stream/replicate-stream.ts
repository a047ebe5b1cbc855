import type { StreamEvent } from '@svc/core';

/**
 * For `n` > 1 on a provider that answers one choice: every choice-0 event is repeated for
 * choices 1..n-1, so each streamed choice carries the same answer (as the non-stream path
 * replicates the first choice). Usage and metadata events pass once.
 */
export function replicateEvent(event: StreamEvent, n: number): StreamEvent[] {
  if (event.type === 'usage' || event.type === 'meta' || event.choice !== 0) return [event];
  const out: StreamEvent[] = [event];
  for (let choice = 1; choice < n; choice++) out.push({ ...event, choice });
  return out;
}
