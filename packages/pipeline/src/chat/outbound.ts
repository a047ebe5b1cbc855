import type { GatewayDeps } from '../gateway-types.js';
import { type MemoryPort, injectMemory, memorySignals, recallForRequest, redactRequest, rememberRequest } from './memory-stage.js';
import { runs } from '../switches/switches.js';
import type { ChatRouting } from './chat-routing.js';
import type { ChatTurn, Outbound, OutboundWork } from './chat-turn.js';
import { routingEmbedding } from './request-embedding.js';

export type { Outbound, OutboundWork };

const nothingToRemember = () => {};
/** What a turn that embeds and recalls nothing (proxy mode) waits for: nothing, not a Promise.all of two undefined. */
const nothingStarted: [undefined, undefined] = [undefined, undefined];

type OutboundDeps = Pick<GatewayDeps, 'memory' | 'sentences'>;

/**
 * Starts what the outbound stage waits for, once per turn: the redaction, the routing embedding
 * and, in full mode, memory recall. The cache stage starts it as soon as the exact cache missed,
 * so the encoder and the memory search run while the semantic cache looks up, not after it (an
 * exact hit never pays for it; a semantic hit leaves it unread). Neither promise rejects.
 */
export function startOutbound(deps: OutboundDeps, turn: ChatTurn): OutboundWork {
  if (turn.outboundWork) return turn.outboundWork;
  const { request, exchange } = turn;
  const memory = exchange.mode === 'full' && deps.memory && runs(turn.switches, 'memory', turn.shed) && turn.memory ? deps.memory : undefined;
  const redaction = request.svc?.redactPii === true ? redactRequest(request) : undefined;
  const sent = redaction?.request ?? request;
  const work: OutboundWork = {
    sent,
    restore: redaction?.restore,
    memory,
    embedding: routingEmbedding(deps.sentences, turn),
    recalled: memory && turn.memory ? recallForRequest(memory, sent, turn.memory.recall) : undefined,
  };
  turn.outboundWork = work;
  return work;
}

/**
 * Stage 4 before the call, after a cache miss (a hit never pays for it): `svc.redact_pii` hides
 * PII from the provider and from memory; cache and full modes route an alias request again with
 * its sentence embedding, full mode with the memory features too (the turn's decision changes),
 * and full mode injects the recalled facts that clear the floors. What it waits for was started
 * by {@link startOutbound}, here or earlier by the cache stage.
 */
export async function prepareOutbound(deps: OutboundDeps, routing: ChatRouting, turn: ChatTurn): Promise<Outbound> {
  const { request, exchange } = turn;
  const work = startOutbound(deps, turn);
  const { sent, restore } = work;
  const [embedding, recalled] = work.embedding === undefined && work.recalled === undefined ? nothingStarted : await Promise.all([work.embedding, work.recalled]);
  if (!work.memory || !turn.memory || !recalled) {
    if (embedding) turn.decision = routing.again(request, exchange, turn.decision, { embedding });
    return { request: sent, restore, memory: undefined, remember: nothingToRemember };
  }
  const memory: MemoryPort = work.memory;
  const scope = turn.memory;
  turn.decision = routing.again(request, exchange, turn.decision, { memory: memorySignals(recalled, request.svc?.conversationId), ...(embedding ? { embedding } : {}) });
  const injected = injectMemory(sent, recalled);
  return { request: injected.request, restore, memory: injected.report, remember: () => void rememberRequest(memory, sent, scope.scope) };
}
