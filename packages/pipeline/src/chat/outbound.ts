import type { GatewayDeps } from '../gateway-types.js';
import { injectMemory, memorySignals, recallForRequest, redactRequest, rememberRequest } from './memory-stage.js';
import { runs } from '../switches/switches.js';
import type { ChatRouting } from './chat-routing.js';
import type { ChatTurn, Outbound } from './chat-turn.js';
import { routingEmbedding } from './request-embedding.js';

export type { Outbound };

const nothingToRemember = () => {};

/**
 * Stage 4 before the call, after a cache miss (a hit never pays for it): `svc.redact_pii` hides
 * PII from the provider and from memory; cache and full modes route an alias request again with
 * its sentence embedding, full mode with the memory features too (the turn's decision changes),
 * and full mode injects the recalled facts that clear the floors.
 */
export async function prepareOutbound(deps: Pick<GatewayDeps, 'memory' | 'sentences'>, routing: ChatRouting, turn: ChatTurn): Promise<Outbound> {
  const { request, exchange } = turn;
  const memory = exchange.mode === 'full' && deps.memory && runs(turn.switches, 'memory', turn.shed) ? deps.memory : undefined;
  const redaction = request.svc?.redactPii === true ? redactRequest(request) : undefined;
  const sent = redaction?.request ?? request;
  const restore = redaction?.restore;
  const embedding = await routingEmbedding(deps.sentences, turn);
  if (!memory || !turn.memory) {
    if (embedding) turn.decision = routing.again(request, exchange, turn.decision, { embedding });
    return { request: sent, restore, memory: undefined, remember: nothingToRemember };
  }
  const scope = turn.memory;
  const recalled = await recallForRequest(memory, sent, scope.recall);
  turn.decision = routing.again(request, exchange, turn.decision, { memory: memorySignals(recalled, request.svc?.conversationId), ...(embedding ? { embedding } : {}) });
  const injected = injectMemory(sent, recalled);
  return { request: injected.request, restore, memory: injected.report, remember: () => void rememberRequest(memory, sent, scope.scope) };
}
