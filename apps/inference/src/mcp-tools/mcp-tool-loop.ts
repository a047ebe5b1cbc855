import type { ChatMessage, ChatRequest, ToolCall } from '@svc/core';
import type { McpCaller } from '@svc/mcp';
import { type ChatJsonResponse, addUsage } from '@svc/pipeline';
import { type McpApprovalRequestItem, type McpCallItem, type McpOutputItem, type McpServerSpec, randomItemId } from '@svc/protocol';
import { callOutputText } from './mcp-call-output.js';
import { type McpAnswerEvent, type StreamRound, streamedRound } from './mcp-streamed-round.js';
import { type McpModelTools, type McpToolSet, type OfferedMcpTool, listMcpServer, toolSetOf } from './mcp-tool-set.js';

/** Model rounds one request may take with MCP tools (the last is asked to answer without tools). */
export const maxMcpRounds = 8;

/** An MCP item begins (`started`: listing, calling) or ends (`done`). */
export interface McpItemEvent {
  phase: 'started' | 'done';
  item: McpOutputItem;
}

/** What the loop reports as it goes: its MCP items, and (rounds streamed) the answer's events. */
export type McpLoopEvent = McpItemEvent | McpAnswerEvent;

/** A call the caller approved (or refused) in the response this request continues. */
export interface ApprovedCall {
  approvalRequestId: string;
  name: string;
  arguments: string;
  approve: boolean;
  reason: string | undefined;
}

export interface McpLoopSettings {
  request: ChatRequest;
  mcpTools: readonly McpServerSpec[];
  /** Calls the caller answered (`mcp_approval_response`): run (or refused) before the first round. */
  approved: readonly ApprovedCall[];
  gateway: McpModelTools;
  caller: McpCaller;
  /** One model round, answered whole; `round` counts from 1. */
  chat(request: ChatRequest, round: number): Promise<ChatJsonResponse>;
  /** With it, every round streams: its text is reported as it arrives (see {@link streamedRound}). */
  stream?: StreamRound;
}

/** The last round's answer (usage summed over every round), and the turns the rounds added (kept for continuations). */
export interface McpLoopEnd {
  response: ChatJsonResponse;
  turns: ChatMessage[];
}

/**
 * Runs a request with remote MCP tools against whichever provider answers it: lists each
 * server's tools (`mcp_list_tools`), offers them to the model as function tools
 * `<server_label>__<tool>`, runs the calls the model makes on the servers (`mcp_call`, each
 * through the organisation's tool policy and a ledger row), feeds the results back and asks
 * again, until the model answers without calling an MCP tool, a call needs the caller's approval
 * (`mcp_approval_request`: the response ends there), or {@link maxMcpRounds} rounds are spent
 * (the last round is asked to answer without tools). A forced `tool_choice` binds the first round only.
 */
export async function* runMcpTools(settings: McpLoopSettings): AsyncGenerator<McpLoopEvent, McpLoopEnd> {
  const { gateway, caller } = settings;
  const listed = [];
  for (const spec of settings.mcpTools) {
    const id = randomItemId('mcpl');
    yield { phase: 'started', item: { type: 'mcp_list_tools', id, server_label: spec.server_label, tools: [], error: null } };
    const server = await listMcpServer(gateway, caller, spec, id);
    listed.push(server);
    yield { phase: 'done', item: server.item };
  }
  const tools = toolSetOf(
    listed.map((server) => server.item),
    listed.flatMap((server) => server.offered),
  );
  const turns: ChatMessage[] = [];
  const resumed = settings.approved.map((call, index) => ({ id: call.approvalRequestId, name: call.name, arguments: call.arguments, approved: call, index }));
  if (resumed.length > 0) {
    turns.push({ role: 'assistant', content: null, toolCalls: resumed.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) });
    for (const call of resumed) turns.push(yield* runCall(settings, tools, call, call.approved));
  }
  let usage: ChatJsonResponse['result']['usage'];
  for (let round = 1; ; round += 1) {
    const request = roundRequest(settings.request, tools, turns, round);
    const endsTurn = (answer: ChatJsonResponse) => mcpCallsOf(answer, tools, round) === undefined;
    const response = settings.stream ? yield* streamedRound(settings.stream, request, round, endsTurn) : await settings.chat(request, round);
    usage = addUsage(usage, response.result.usage);
    const message = response.result.choices[0]?.message;
    const mcpCalls = mcpCallsOf(response, tools, round);
    if (!mcpCalls) return end(response, usage, turns);
    const waiting = mcpCalls.filter((call) => tools.byName.get(call.name)!.needsApproval);
    if (waiting.length > 0) {
      for (const call of waiting) yield { phase: 'started', item: approvalRequest(call, tools.byName.get(call.name)!) };
      const answered = { ...response, result: { ...response.result, choices: [{ ...response.result.choices[0]!, message: { ...message!, toolCalls: undefined } }] } };
      return end(answered, usage, turns);
    }
    turns.push({ role: 'assistant', content: message?.content ?? null, toolCalls: mcpCalls });
    for (const call of mcpCalls) turns.push(yield* runCall(settings, tools, call, undefined));
  }
}

/**
 * The MCP calls a round's answer asks the gateway to run, or undefined when the answer ends the
 * turn: no MCP call, a call of the caller's own function tools (those answer to the caller), or
 * the last round spent.
 */
function mcpCallsOf(answer: ChatJsonResponse, tools: McpToolSet, round: number): ToolCall[] | undefined {
  const calls = answer.result.choices[0]?.message.toolCalls ?? [];
  const mcpCalls = calls.filter((call) => tools.byName.has(call.name));
  return mcpCalls.length === 0 || mcpCalls.length !== calls.length || round >= maxMcpRounds ? undefined : mcpCalls;
}

function end(response: ChatJsonResponse, usage: ChatJsonResponse['result']['usage'], turns: ChatMessage[]): McpLoopEnd {
  return { response: { ...response, result: { ...response.result, ...(usage ? { usage } : {}) } }, turns };
}

/** The request of one round: the caller's request, the MCP tools beside its own, the rounds so far. */
function roundRequest(base: ChatRequest, tools: McpToolSet, turns: ChatMessage[], round: number): ChatRequest {
  const request: ChatRequest = { ...base, stream: false, messages: [...base.messages, ...turns], tools: [...(base.tools ?? []), ...tools.definitions] };
  if (request.tools?.length === 0) delete request.tools;
  if (round >= maxMcpRounds) request.toolChoice = 'none';
  else if (round > 1 || turns.length > 0) request.toolChoice = 'auto';
  return request;
}

function approvalRequest(call: ToolCall, offered: OfferedMcpTool): McpApprovalRequestItem {
  return { type: 'mcp_approval_request', id: call.id, server_label: offered.label, name: offered.tool, arguments: call.arguments };
}

/** Runs one call the model made (or reports the caller's refusal): its `mcp_call` item, and the tool turn the model reads. */
async function* runCall(settings: McpLoopSettings, tools: McpToolSet, call: ToolCall, approval: ApprovedCall | undefined): AsyncGenerator<McpLoopEvent, ChatMessage> {
  const offered = tools.byName.get(call.name);
  const item: McpCallItem = {
    type: 'mcp_call',
    id: randomItemId('mcp'),
    server_label: offered?.label ?? '',
    name: offered?.tool ?? call.name,
    arguments: call.arguments,
    output: null,
    error: null,
    status: 'in_progress',
    approval_request_id: approval?.approvalRequestId ?? null,
  };
  yield { phase: 'started', item: { ...item } };
  const outcome = await callOutcome(settings, offered, call, approval);
  Object.assign(item, outcome);
  yield { phase: 'done', item };
  return { role: 'tool', toolCallId: call.id, content: outcome.output ?? `Error: ${outcome.error}` };
}

async function callOutcome(settings: McpLoopSettings, offered: OfferedMcpTool | undefined, call: ToolCall, approval: ApprovedCall | undefined): Promise<Pick<McpCallItem, 'output' | 'error' | 'status'>> {
  if (!offered) return { output: null, error: `The tool '${call.name}' is no longer offered by its MCP server.`, status: 'failed' };
  if (approval && !approval.approve) return { output: null, error: `The caller did not approve this call${approval.reason ? `: ${approval.reason}` : '.'}`, status: 'failed' };
  let args: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    args = parsed as Record<string, unknown>;
  } catch {
    return { output: null, error: 'The model gave arguments that are not a JSON object.', status: 'failed' };
  }
  try {
    const result = await settings.gateway.modelToolCall(settings.caller, offered.target, offered.tool, args);
    const text = callOutputText(result);
    return result.isError ? { output: null, error: text, status: 'failed' } : { output: text, error: null, status: 'completed' };
  } catch (error) {
    return { output: null, error: error instanceof Error ? error.message : String(error), status: 'failed' };
  }
}
