import type { CachedAnswer, ChatRequest, ContentPart, ImagePart, TextPart } from '@svc/core';

/**
 * Requests for the tests: a base that sets every keyed field, the changes that must each give
 * another entry, and the rewrites that must each keep the same one.
 */
export function baseRequest(): ChatRequest {
  return {
    model: 'svc/auto',
    messages: [
      { role: 'system', content: 'You are terse.' },
      {
        role: 'user',
        name: 'ana',
        content: [
          { type: 'text', text: 'What is the weather in this city?' },
          { type: 'image', url: 'https://images.example/paris.png', detail: 'low' },
        ],
      },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }] },
      { role: 'tool', content: '18 C, clear', toolCallId: 'call_1' },
    ],
    stream: false,
    n: 1,
    includeUsage: false,
    maxTokens: 256,
    temperature: 0,
    topP: 0.9,
    frequencyPenalty: 0.1,
    presencePenalty: 0.2,
    stop: ['END', '###'],
    seed: 7,
    tools: [
      {
        name: 'weather',
        description: 'Current weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'] },
        strict: true,
      },
    ],
    toolChoice: 'auto',
    parallelToolCalls: false,
    responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { text: { type: 'string' } } }, strict: true },
    reasoningEffort: 'low',
    reasoning: { effort: 'low', maxTokens: 100 },
    routingHints: { mode: 'balanced', preferenceDial: 0.5, maxTier: 2, requiredCapabilities: ['tools'] },
    routingOverride: { forceTier: 'T2' },
    svc: { workflowType: 'single_turn', conversationId: 'conv-1' },
  };
}

type Edit = (request: ChatRequest) => void;

/** Each of these changes the answer (or the model chosen for it): a different entry. */
export const answerChanges: readonly (readonly [string, Edit])[] = [
  ['model (alias)', (r) => { r.model = 'svc/auto-quality'; }],
  ['model (slug)', (r) => { r.model = 'openai/gpt-4o-mini'; }],
  ['message role', (r) => { r.messages[0]!.role = 'developer'; }],
  ['message text', (r) => { r.messages[0]!.content = 'You are verbose.'; }],
  ['content part text', (r) => { (parts(r)[0] as TextPart).text = 'What is the weather in that city?'; }],
  ['image url', (r) => { (parts(r)[1] as ImagePart).url = 'https://images.example/rome.png'; }],
  ['image detail', (r) => { (parts(r)[1] as ImagePart).detail = 'high'; }],
  ['content part order', (r) => { parts(r).reverse(); }],
  ['message name', (r) => { r.messages[1]!.name = 'bob'; }],
  ['tool call id', (r) => { r.messages[2]!.toolCalls![0]!.id = 'call_2'; }],
  ['tool call name', (r) => { r.messages[2]!.toolCalls![0]!.name = 'forecast'; }],
  ['tool call arguments', (r) => { r.messages[2]!.toolCalls![0]!.arguments = '{"city":"Rome"}'; }],
  ['tool_call_id', (r) => { r.messages[3]!.toolCallId = 'call_2'; }],
  ['refusal', (r) => { r.messages[2]!.refusal = 'I cannot.'; }],
  ['one more message', (r) => { r.messages.push({ role: 'user', content: 'And tomorrow?' }); }],
  ['message order', (r) => { r.messages.splice(0, 2, r.messages[1]!, r.messages[0]!); }],
  ['tool name', (r) => { r.tools![0]!.name = 'forecast'; }],
  ['tool description', (r) => { r.tools![0]!.description = 'Weather'; }],
  ['tool parameters (nested)', (r) => { r.tools![0]!.parameters = { ...r.tools![0]!.parameters, required: [] }; }],
  ['tool strict', (r) => { r.tools![0]!.strict = false; }],
  ['no tools', (r) => { r.tools = undefined; }],
  ['tool_choice required', (r) => { r.toolChoice = 'required'; }],
  ['tool_choice named', (r) => { r.toolChoice = { name: 'weather' }; }],
  ['parallel_tool_calls', (r) => { r.parallelToolCalls = true; }],
  ['response_format json_object', (r) => { r.responseFormat = { type: 'json_object' }; }],
  ['response_format schema', (r) => { r.responseFormat = { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true }; }],
  ['temperature', (r) => { r.temperature = 0.7; }],
  ['top_p', (r) => { r.topP = 1; }],
  ['frequency_penalty', (r) => { r.frequencyPenalty = 0; }],
  ['presence_penalty', (r) => { r.presencePenalty = 0; }],
  ['seed', (r) => { r.seed = 8; }],
  ['stop', (r) => { r.stop = ['END']; }],
  ['n', (r) => { r.n = 2; }],
  ['max_tokens', (r) => { r.maxTokens = 512; }],
  ['reasoning_effort', (r) => { r.reasoningEffort = 'high'; }],
  ['reasoning.max_tokens', (r) => { r.reasoning = { effort: 'low', maxTokens: 200 }; }],
  ['reasoning.exclude', (r) => { r.reasoning = { effort: 'low', maxTokens: 100, exclude: true }; }],
  ['routing_hints.mode', (r) => { r.routingHints!.mode = 'quality'; }],
  ['routing_hints.preference_dial', (r) => { r.routingHints!.preferenceDial = 0.9; }],
  ['routing_hints.max_tier', (r) => { r.routingHints!.maxTier = 1; }],
  ['routing_hints.required_capabilities', (r) => { r.routingHints!.requiredCapabilities = ['vision']; }],
  ['routing_hints.task_complexity', (r) => { r.routingHints!.taskComplexity = 'expert'; }],
  ['routing_override.force_tier', (r) => { r.routingOverride = { forceTier: 'T1' }; }],
  ['routing_override.force_model', (r) => { r.routingOverride = { forceTier: 'T2', forceModel: 'anthropic/claude-sonnet-4' }; }],
  ['service_tier', (r) => { r.serviceTier = 'batch'; }],
  ['svc.workflow_type', (r) => { r.svc!.workflowType = 'creative'; }],
  ['svc.redact_pii', (r) => { r.svc!.redactPii = true; }],
  ['svc.output_verification', (r) => { r.svc!.outputVerification = 'schema'; }],
];

/** Each of these keeps the answer: the same entry. */
export const sameAnswer: readonly (readonly [string, Edit])[] = [
  ['stream', (r) => { r.stream = true; }],
  ['stream_options.include_usage', (r) => { Object.assign(r, { stream: true, includeUsage: true }); }],
  ['user', (r) => { r.user = 'user-42'; }],
  ['metadata', (r) => { r.metadata = { trace: 'abc' }; }],
  ['svc ids and toggles', (r) => { r.svc = { workflowType: 'single_turn', conversationId: 'conv-2', chainId: 'c', enableCache: true, enableMemory: false, intelligenceMode: 'full' }; }],
  ['stop order', (r) => { r.stop!.reverse(); }],
  ['one text part for a string', (r) => { r.messages[0]!.content = [{ type: 'text', text: 'You are terse.' }]; }],
  ['undefined members', (r) => { r.routingOverride = { forceTier: 'T2', forceModel: undefined }; }],
];

/** `value` rebuilt with every object's keys in reverse order: equal, written differently. */
export function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reverseKeys) as T;
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).reverse();
  return Object.fromEntries(entries.map(([key, member]) => [key, reverseKeys(member)])) as T;
}

/** A stored answer, as the pipeline gives it to the cache. */
export function answerOf(text: string, storedAt: number): CachedAnswer {
  return {
    result: {
      id: 'chatcmpl-1',
      model: 'gpt-4o-mini-2024-07-18',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finishReason: 'stop' }],
      usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 },
    },
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    tier: 'T3',
    storedAt,
  };
}

function parts(request: ChatRequest): ContentPart[] {
  return request.messages[1]!.content as ContentPart[];
}
