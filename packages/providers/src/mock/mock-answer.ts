import { tokensForChars } from '@svc/billing';
import { type ChatMessage, type FinishReason, ProviderError, type ToolCall, type ToolDefinition, type Usage, kindFromStatus, seededRandom } from '@svc/core';
import type { ProviderChatRequest } from '../provider.js';
import { type MockDirectives, readDirectives } from './mock-directives.js';
import { sampleFromSchema } from './mock-json.js';
import { chunkText, generateWords, hashString } from './mock-random.js';

/** One planned choice: the text as tokens, or one tool call whose arguments stream as tokens. */
export interface PlannedChoice {
  tokens: string[];
  toolCall?: ToolCall;
  finishReason: FinishReason;
}

export interface MockAnswer {
  id: string;
  choices: PlannedChoice[];
  usage: Usage;
  directives: MockDirectives;
}

/**
 * Plans the whole deterministic answer up front: the same request always gets the same choices
 * and usage, so cache and replay tests can compare answers exactly.
 */
export function planAnswer(provider: string, request: ProviderChatRequest): MockAnswer {
  const prompt = lastUserText(request.messages);
  const directives = readDirectives(prompt);
  if (directives.errorStatus !== undefined) throw directiveError(provider, directives.errorStatus);
  const seed = hashString(prompt);
  const tool = chooseTool(provider, request, prompt, directives);
  const choices: PlannedChoice[] = [];
  let completionTokens = 0;
  for (let index = 0; index < Math.max(1, request.n); index++) {
    // Choices differ from each other but each is stable for the prompt.
    const random = seededRandom(seed ^ Math.imul(index + 1, 0x9e3779b1));
    const choice = tool !== undefined ? planToolCall(tool, random, seed, index) : planText(request, directives, random);
    completionTokens += choice.tokens.length;
    choices.push(choice);
  }
  const promptTokens = estimatePromptTokens(request.messages);
  return {
    id: `mockcmpl-${seed.toString(16).padStart(8, '0')}`,
    choices,
    usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
    directives,
  };
}

function planText(request: ProviderChatRequest, directives: MockDirectives, random: () => number): PlannedChoice {
  const format = request.responseFormat;
  let tokens: string[];
  // A scripted reply wins over JSON mode: tests script a malformed JSON answer this way.
  if (directives.reply !== undefined) {
    tokens = directives.reply.split(/(?=\s)/);
  } else if (format !== undefined && format.type !== 'text') {
    const schema = format.type === 'json_schema' ? format.schema : undefined;
    const value = schema !== undefined ? sampleFromSchema(schema, random) : { answer: generateWords(random, 8).join('') };
    tokens = chunkText(JSON.stringify(value));
  } else {
    tokens = generateWords(random, directives.tokens ?? 16 + Math.floor(random() * 32));
  }
  if (request.maxTokens !== undefined && tokens.length > request.maxTokens) {
    return { tokens: tokens.slice(0, request.maxTokens), finishReason: 'length' };
  }
  return { tokens, finishReason: 'stop' };
}

function planToolCall(tool: ToolDefinition, random: () => number, seed: number, index: number): PlannedChoice {
  const args = JSON.stringify(sampleFromSchema(tool.parameters ?? { type: 'object', properties: {} }, random));
  const id = `call_mock_${hashString(tool.name, seed + index).toString(16).padStart(8, '0')}`;
  return { tokens: chunkText(args), toolCall: { id, name: tool.name, arguments: args }, finishReason: 'tool_calls' };
}

const asksForTool = /\b(?:call|use|invoke|run)\b/i;
const mentionsTool = /\b(?:tool|function)s?\b/i;

/**
 * A tool is called when tool_choice requires one or names one, or when the user asks for it
 * ("use the get_weather tool", "call a function"). After a tool result the model answers in
 * text unless a call is required, so agent loops terminate.
 */
function chooseTool(provider: string, request: ProviderChatRequest, prompt: string, directives: MockDirectives): ToolDefinition | undefined {
  const tools = request.tools;
  if (tools === undefined || tools.length === 0 || request.toolChoice === 'none') return undefined;
  const wanted = typeof request.toolChoice === 'object' ? request.toolChoice.name : directives.tool;
  if (wanted !== undefined) {
    const named = tools.find((tool) => tool.name === wanted);
    if (named === undefined) {
      throw new ProviderError({ provider, kind: 'invalid_request', message: `Tool '${wanted}' is not among the request's tools.`, upstreamStatus: 400, param: 'tool_choice' });
    }
    return named;
  }
  const mentioned = tools.find((tool) => prompt.includes(tool.name));
  if (request.toolChoice === 'required') return mentioned ?? tools[0];
  if (request.messages.at(-1)?.role === 'tool') return undefined;
  if (asksForTool.test(prompt) && (mentioned !== undefined || mentionsTool.test(prompt))) return mentioned ?? tools[0];
  return undefined;
}

function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return contentText(message.content);
  }
  return '';
}

function contentText(content: ChatMessage['content']): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}

/** Roughly chars/4 over the conversation; an image counts as 85 tokens (OpenAI's low-detail price). */
function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  let extra = 0;
  for (const message of messages) {
    chars += contentText(message.content).length + message.role.length;
    if (typeof message.content === 'object' && message.content !== null) {
      for (const part of message.content) if (part.type === 'image') extra += 85;
    }
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  }
  return Math.max(1, tokensForChars(chars) + extra);
}

/** The ProviderError an upstream `status` maps to, for `[mock:error=<status>]`. */
export function directiveError(provider: string, status: number): ProviderError {
  return new ProviderError({
    provider,
    kind: kindFromStatus(status),
    message: `Mock upstream answered ${status} as the request asked.`,
    upstreamStatus: status,
    upstreamCode: `mock_${status}`,
    retryAfterMs: status === 429 ? 1000 : undefined,
  });
}
