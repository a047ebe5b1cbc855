import type { ChatRequest, StreamEvent } from '@svc/core';
import { type ChatJsonResponse, type ChatStreamResponse, StreamCollector } from '@svc/pipeline';

/** A model event the caller streams on: any round's text, the last round's own tool calls and finish. */
export interface McpAnswerEvent {
  phase: 'answer';
  event: StreamEvent;
}

/** One model round of an MCP request, streamed: `round` counts from 1. */
export type StreamRound = (request: ChatRequest, round: number) => Promise<ChatStreamResponse>;

/**
 * Runs one round as a stream and passes its text on as it arrives (`onward`), so the caller reads
 * the answer token by token whichever round turns out to be the last. What only the round's end
 * decides is held back: its tool calls (an MCP call becomes an `mcp_call` item, not a function
 * call), its finish and its usage (summed over the rounds by the loop). `release` says, once the
 * round is whole, whether they are the answer's: then the tool calls and the finish follow.
 *
 * @throws Error when the stream ended without finishing (a cut stream is never an answer).
 */
export async function* streamedRound(
  stream: StreamRound,
  request: ChatRequest,
  round: number,
  release: (answer: ChatJsonResponse) => boolean,
): AsyncGenerator<McpAnswerEvent, ChatJsonResponse> {
  const answered = await stream({ ...request, stream: true, includeUsage: true }, round);
  const collector = new StreamCollector(answered.model);
  const held: StreamEvent[] = [];
  for await (const event of answered.events) {
    collector.add(event);
    if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') yield { phase: 'answer', event };
    else if (event.type !== 'usage' && event.type !== 'meta') held.push(event);
  }
  const result = collector.result();
  const metadata = answered.metadata();
  if (!result || !metadata) throw new Error('a tool round’s stream ended before its answer was complete');
  const answer: ChatJsonResponse = { kind: 'json', result, metadata, headers: answered.headers };
  if (release(answer)) for (const event of held) yield { phase: 'answer', event };
  return answer;
}
