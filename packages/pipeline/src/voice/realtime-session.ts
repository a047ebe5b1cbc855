import { type Reservation, realtimeCost, realtimeTokens } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import { type IntelligenceMode, type RealtimeTurn, type RealtimeUsage, invalidRequest } from '@svc/core';
import { MAX_CONVERSATION_ID_CHARS } from '@svc/protocol';
import type { RealtimeSocket } from '@svc/providers';
import type { Exchange } from '../gateway.js';
import { type UnitStageDeps, admitUnits, callUnit, orgProviders } from '../units/unit-stage.js';
import type { VoiceSessionStore } from './voice-session.js';
import { requireAllowedModel } from '../chat/org-policy.js';
import { unitModel } from '@svc/router';

/** What the realtime stage needs on top of the other single-model stages. */
export interface RealtimeDeps extends UnitStageDeps {
  /** The voice platform fee per started minute, USD (`SVC_VOICE_PLATFORM_FEE_PER_MINUTE`). */
  platformFeePerMinute: number;
  /**
   * Where `full` mode keeps each conversation's turns: the voice endpoints' session store, so a
   * realtime conversation and `/v1/voice/chat` under one conversation id share their history.
   * Absent: nothing is kept.
   */
  voiceContext?: Pick<VoiceSessionStore, 'append'>;
  /** Longest wait for the upstream's handshake, ms. */
  handshakeTimeoutMs?: number;
  /** Largest message accepted from the upstream, bytes. */
  maxPayload?: number;
  /** Receives failures of the background writes (voice context, limit charges). */
  onError?: (error: unknown) => void;
}

/** A realtime session as the client asked for it (query and headers of the upgrade). */
export interface RealtimeOpenRequest {
  /** `?model=`: a slug or bare upstream name of a realtime model; absent: the catalog's first. */
  model?: string;
  /** The client speaks the beta protocol. */
  beta: boolean;
  /** `x-svc-conversation-id` or `?conversation_id=`; `full` mode stores the turns under it. */
  conversationId?: string;
}

/** Why a session ended; `upstream_error` and `error` are failures, the rest normal ends. */
export type RealtimeEndReason = 'client' | 'upstream' | 'upstream_error' | 'deadline' | 'shutdown' | 'error';

/** A session's bill, as its ledger rows hold it together. */
export interface RealtimeBill {
  minutes: number;
  durationMs: number;
  usage: RealtimeUsage;
  costUsd: number;
  platformFeeUsd: number;
}

const MINUTE_MS = 60_000;
const emptyUsage = (): RealtimeUsage => ({ textInputTokens: 0, cachedTextInputTokens: 0, audioInputTokens: 0, cachedAudioInputTokens: 0, textOutputTokens: 0, audioOutputTokens: 0 });

/**
 * The realtime stage: resolve the intelligence mode (proxy escalates to cache for voice),
 * the realtime model and the organisation's providers (its own key first), admit the session
 * against its limits with the price of its first minute, and open the upstream WebSocket
 * behind the model's breaker. The returned session is then metered by the caller's relay:
 * `observe` for what the upstream reports, `end` once (and exactly once) when either side is gone.
 *
 * @throws GatewayError 400 (`model`, `conversation_id`, `X-Intelligence-Mode`); 500
 *   `no_provider_configured`; 429/402 from the limits; 503 breaker open; the upstream's refusal
 *   (429 `upstream_rate_limit`, 502, 504 ...). Nothing is billed then.
 */
export async function openRealtimeSession(deps: RealtimeDeps, request: RealtimeOpenRequest, context: Exchange): Promise<RealtimeSession> {
  // Spec §Intelligence modes, Voice: proxy escalates to cache; the context is kept in full only.
  const { mode } = context;
  if (request.conversationId !== undefined && (request.conversationId.length === 0 || request.conversationId.length > MAX_CONVERSATION_ID_CHARS)) {
    throw invalidRequest(`conversation_id must be 1 to ${MAX_CONVERSATION_ID_CHARS} characters.`, 'conversation_id');
  }
  const model = requireAllowedModel(context.caller, unitModel(deps.catalog, request.model, 'realtime', 'realtime'));
  const org = await orgProviders(deps, context.caller.org.id);
  const byok = org.ownKey(model.provider);
  const firstMinute = realtimeCost(model, { durationMs: 0, usage: emptyUsage(), platformFeePerMinute: deps.platformFeePerMinute });
  const reservation = await admitUnits(deps, context, { tokens: 0, costUsd: byok ? firstMinute.platformFeeUsd : firstMinute.costUsd });
  let upstream: RealtimeSocket;
  try {
    upstream = await callUnit(deps, org, model, context.signal, (provider) => {
      const connect = provider.realtime?.bind(provider);
      return (
        connect &&
        (() =>
          connect(
            { model: model.upstreamId, beta: request.beta },
            {
              signal: context.signal,
              ...(deps.handshakeTimeoutMs === undefined ? {} : { handshakeTimeoutMs: deps.handshakeTimeoutMs }),
              ...(deps.maxPayload === undefined ? {} : { maxPayload: deps.maxPayload }),
            },
          ))
      );
    });
  } catch (error) {
    void reservation.release();
    throw error;
  }
  const conversationId = mode === 'full' ? (request.conversationId ?? `conv_${context.requestId}`) : request.conversationId;
  return new RealtimeSession(deps, context, { model, mode, byok, reservation, upstream, conversationId });
}

interface SessionParts {
  model: ModelInfo;
  mode: IntelligenceMode;
  byok: boolean;
  reservation: Reservation;
  upstream: RealtimeSocket;
  conversationId: string | undefined;
}

/**
 * One open realtime session: the upstream socket (paused until the caller resumes it), the
 * headers of the client's 101, and the meter. Every started minute is charged to the
 * organisation's limits while the session runs (never refused: it is already running) and
 * written to the ledger as it starts: a `<id>:minute-<n>` row with what the session cost since
 * the last row (the minute, and the tokens reported meanwhile), so a process killed mid-session
 * leaves its spend recorded up to the minute it was in. `end` settles the reservation and queues
 * the session's own row (`<id>`: the rest of the cost, its length and status). Reports count a
 * request's `<id>:<part>` rows as one request.
 */
export class RealtimeSession {
  readonly model: ModelInfo;
  readonly mode: IntelligenceMode;
  readonly upstream: RealtimeSocket;
  readonly conversationId: string | undefined;
  /** `X-Svc-Intelligence-Mode`, `x-svc-*` and `x-ratelimit-*` headers for the upgrade response. */
  readonly headers: Record<string, string>;
  private readonly usage = emptyUsage();
  private readonly started = Date.now();
  private readonly byok: boolean;
  private readonly reservation: Reservation;
  private readonly minuteTimer: NodeJS.Timeout;
  private chargedUsd = 0;
  /** The longest duration priced so far: a minute charged at its start stays billed. */
  private pricedMs = 0;
  /** What the ledger rows written so far hold. */
  private readonly recorded = { costUsd: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
  private contextWrites: Promise<void> = Promise.resolve();
  private bill: RealtimeBill | undefined;

  constructor(
    private readonly deps: RealtimeDeps,
    private readonly context: Exchange,
    parts: SessionParts,
  ) {
    this.model = parts.model;
    this.mode = parts.mode;
    this.upstream = parts.upstream;
    this.conversationId = parts.conversationId;
    this.byok = parts.byok;
    this.reservation = parts.reservation;
    this.headers = {
      'x-svc-intelligence-mode': this.mode,
      'x-svc-request-id': context.requestId,
      'x-svc-org-id': context.caller.org.id,
      'x-svc-provider': this.model.provider,
      'x-svc-model': this.model.id,
      'x-svc-tier-used': this.model.tier,
      ...(this.conversationId === undefined ? {} : { 'x-svc-conversation-id': this.conversationId }),
      ...parts.reservation.headers,
    };
    this.minuteTimer = setInterval(() => this.chargeSoFar(), MINUTE_MS);
    this.minuteTimer.unref();
    deps.metrics.realtimeSessions.inc({ provider: this.model.provider, model: this.model.id });
    // The first minute, admitted with the session, is in the ledger from its start.
    this.recordSoFar(this.price(0), ':minute-1', 101, 0);
  }

  /** Milliseconds since the session opened. */
  get durationMs(): number {
    return Date.now() - this.started;
  }

  /** True once `end` was called. */
  get ended(): boolean {
    return this.bill !== undefined;
  }

  /** Counts tokens the upstream reported (`response.done`). */
  addUsage(usage: RealtimeUsage): void {
    if (this.bill) return;
    this.usage.textInputTokens += usage.textInputTokens;
    this.usage.cachedTextInputTokens += usage.cachedTextInputTokens;
    this.usage.audioInputTokens += usage.audioInputTokens;
    this.usage.cachedAudioInputTokens += usage.cachedAudioInputTokens;
    this.usage.textOutputTokens += usage.textOutputTokens;
    this.usage.audioOutputTokens += usage.audioOutputTokens;
  }

  /** Keeps a finished turn as session context (`full` mode only; skipped in `cache`). */
  addTurn(turn: RealtimeTurn): void {
    const store = this.deps.voiceContext;
    const conversationId = this.conversationId;
    if (this.mode !== 'full' || !store || conversationId === undefined) return;
    // One write at a time per session, so turns keep their order.
    this.contextWrites = this.contextWrites
      .then(() => store.append(this.context.caller.org.id, conversationId, [{ role: turn.role, content: turn.text }]))
      .catch((error: unknown) => this.deps.onError?.(error));
  }

  /** Resolves once the turns stored so far are written. */
  contextWritten(): Promise<void> {
    return this.contextWrites;
  }

  /**
   * Ends the meter (idempotent: later calls return the first bill): the started minutes and
   * reported tokens are priced, the reservation settled and the session's own ledger row queued
   * with what the minute rows do not hold yet.
   */
  end(reason: RealtimeEndReason): RealtimeBill {
    if (this.bill) return this.bill;
    clearInterval(this.minuteTimer);
    const durationMs = this.durationMs;
    const cost = this.price(durationMs);
    this.bill = { minutes: cost.minutes, durationMs, usage: { ...this.usage }, costUsd: cost.costUsd, platformFeeUsd: cost.platformFeeUsd };
    const tokens = realtimeTokens(this.usage);
    const { model, deps } = this;
    void this.reservation.settle({ actualTokens: tokens, actualCostUsd: this.budgetCost(cost.costUsd, cost.platformFeeUsd) }).catch((error: unknown) => deps.onError?.(error));
    deps.metrics.realtimeSessions.dec({ provider: model.provider, model: model.id });
    deps.metrics.realtimeSessionMinutes.inc({ provider: model.provider, model: model.id }, cost.minutes);
    deps.metrics.realtimeSessionsClosed.inc({ reason });
    deps.metrics.costUsd.inc({ model: model.id, provider: model.provider }, cost.costUsd);
    deps.metrics.tokens.inc({ direction: 'prompt', model: model.id, provider: model.provider }, this.usage.textInputTokens + this.usage.audioInputTokens);
    deps.metrics.tokens.inc({ direction: 'completion', model: model.id, provider: model.provider }, this.usage.textOutputTokens + this.usage.audioOutputTokens);
    // The session's length: the billed minutes are its started minutes. 101 Switching Protocols
    // was the answer; a session the upstream broke is recorded as 502.
    this.recordSoFar(cost, '', reason === 'upstream_error' ? 502 : 101, durationMs);
    return this.bill;
  }

  /** What counts against the budget: with the organisation's own key, only the platform fee. */
  private budgetCost(costUsd: number, platformFeeUsd: number): number {
    return this.byok ? platformFeeUsd : costUsd;
  }

  /** Charges the minute just started and the tokens reported so far to the limits. */
  private chargeSoFar(): void {
    if (this.bill) return;
    // +1 ms: the minute that starts now is charged at its start.
    const durationMs = this.durationMs;
    const cost = this.price(durationMs + 1);
    this.recordSoFar(cost, `:minute-${cost.minutes}`, 101, durationMs);
    const total = this.budgetCost(cost.costUsd, cost.platformFeeUsd);
    const delta = total - this.chargedUsd;
    if (delta <= 0) return;
    this.chargedUsd = total;
    void this.reservation.charge(0, delta).catch((error: unknown) => this.deps.onError?.(error));
  }

  /** The bill of the first `durationMs` (never fewer minutes than were already priced) and the tokens so far. */
  private price(durationMs: number): ReturnType<typeof realtimeCost> {
    this.pricedMs = Math.max(this.pricedMs, durationMs);
    return realtimeCost(this.model, { durationMs: this.pricedMs, usage: this.usage, platformFeePerMinute: this.deps.platformFeePerMinute });
  }

  /**
   * Queues a ledger row `<request id><suffix>` with what `cost` and the reported tokens add to
   * the rows already written. An interim row that adds nothing is skipped; the session's own
   * row (suffix '') is always written.
   */
  private recordSoFar(cost: ReturnType<typeof realtimeCost>, suffix: string, status: number, latencyMs: number): void {
    const { usage, recorded, model, context } = this;
    const promptTokens = usage.textInputTokens + usage.audioInputTokens;
    const completionTokens = usage.textOutputTokens + usage.audioOutputTokens;
    const cachedTokens = usage.cachedTextInputTokens + usage.cachedAudioInputTokens;
    const row = {
      costUsd: cost.costUsd - recorded.costUsd,
      promptTokens: promptTokens - recorded.promptTokens,
      completionTokens: completionTokens - recorded.completionTokens,
      cachedTokens: cachedTokens - recorded.cachedTokens,
    };
    if (suffix !== '' && row.costUsd <= 1e-12 && row.promptTokens === 0 && row.completionTokens === 0) return;
    Object.assign(recorded, { costUsd: cost.costUsd, promptTokens, completionTokens, cachedTokens });
    this.deps.learn.recordUsage({
      requestId: context.requestId + suffix,
      orgId: context.caller.org.id,
      keyId: context.caller.keyId,
      model: model.id,
      provider: model.provider,
      ...row,
      // Voice claims no savings against the chat baseline.
      baselineCostUsd: row.costUsd,
      cacheHit: false,
      latencyMs,
      status,
      stream: true,
      createdAt: new Date(),
    });
  }
}
