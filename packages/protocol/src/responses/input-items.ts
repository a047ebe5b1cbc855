import type { ResponsesInputItem, ResponsesInputPart, ResponsesWireRequest } from './responses-request-schema.js';
import { functionCallItemId, messageItemId, randomItemId } from './response-shell.js';

type InputItemRecord = Record<string, unknown>;

/**
 * The validated `input` as the list of items OpenAI's `input_items` answers: a string is one
 * `user` message, every message carries its content as parts (`input_text`, or `output_text`
 * for assistant turns), and every item gets an id. Replayed `reasoning` items are left out
 * (the conversation drops them too).
 */
export function inputItemsOf(input: ResponsesWireRequest['input']): InputItemRecord[] {
  const items: ResponsesInputItem[] = typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [input];
  return items.flatMap((item) => {
    const record = inputItemOf(item);
    return record ? [record] : [];
  });
}

function inputItemOf(item: ResponsesInputItem): InputItemRecord | undefined {
  switch (item.type) {
    case 'reasoning':
    case 'mcp_list_tools':
    case 'mcp_call':
    case 'mcp_approval_request':
      return undefined;
    case 'mcp_approval_response':
      return { id: randomItemId('mcpr'), type: 'mcp_approval_response', approval_request_id: item.approval_request_id, approve: item.approve, reason: item.reason ?? null };
    case 'function_call':
      return { id: functionCallItemId(), type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments, status: 'completed' };
    case 'function_call_output':
      return { id: randomItemId('fco'), type: 'function_call_output', call_id: item.call_id, output: item.output, status: 'completed' };
    default: {
      const content: ResponsesInputPart[] =
        typeof item.content === 'string' ? [item.role === 'assistant' ? { type: 'output_text', text: item.content } : { type: 'input_text', text: item.content }] : item.content;
      return { id: messageItemId(), type: 'message', role: item.role, content, status: 'completed' };
    }
  }
}
