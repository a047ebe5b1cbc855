import type { ChatResult, StreamEvent, Usage } from '@svc/core';

/** Characters per replayed text event: about four tokens, like a provider's own pacing. */
const chunkChars = 16;

/** Splits text at word boundaries into pieces of about `chunkChars` characters. */
function* pieces(text: string): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + chunkChars);
    if (end < text.length) {
      const space = text.indexOf(' ', end);
      end = space === -1 || space - end > chunkChars ? end : space + 1;
    }
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * A stored answer as the canonical stream a provider would have sent: `meta`, then per choice
 * its reasoning, text, refusal and tool calls in small pieces, its finish, and the usage last.
 * Used to replay a cache hit token by token when the request streams.
 */
export function* replayStream(result: ChatResult, usage: Usage | undefined): Generator<StreamEvent> {
  yield { type: 'meta', ...(result.id ? { id: result.id } : {}), model: result.model, ...(result.systemFingerprint ? { systemFingerprint: result.systemFingerprint } : {}) };
  for (const choice of result.choices) {
    const { message, index } = choice;
    if (message.reasoning) for (const text of pieces(message.reasoning)) yield { type: 'reasoning-delta', choice: index, text };
    if (message.content) for (const text of pieces(message.content)) yield { type: 'text-delta', choice: index, text };
    if (message.refusal) for (const text of pieces(message.refusal)) yield { type: 'refusal-delta', choice: index, text };
    const calls = message.toolCalls ?? [];
    for (let callIndex = 0; callIndex < calls.length; callIndex++) {
      const call = calls[callIndex]!;
      yield { type: 'tool-call-delta', choice: index, index: callIndex, id: call.id, name: call.name, argumentsDelta: '' };
      for (const argumentsDelta of pieces(call.arguments)) yield { type: 'tool-call-delta', choice: index, index: callIndex, argumentsDelta };
      yield { type: 'tool-call-end', choice: index, index: callIndex };
    }
    yield { type: 'finish', choice: index, finishReason: choice.finishReason };
  }
  if (usage) yield { type: 'usage', usage };
}
