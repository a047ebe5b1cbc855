import type { ModelInfo } from '@svc/catalog';
import type { ChatRequest, IntelligenceMode } from '@svc/core';
import { BoundedQueue, type QueueStats } from './bounded-queue.js';
import type { DailyShadowBudget } from './daily-budget.js';
import { shadowSkipReason } from './eligibility.js';
import type { JudgedPairSink } from './judged-pair.js';
import { conversationText, judgeRequest } from './judge-prompt.js';
import { SampleCredit } from './sample-credit.js';
import type { ShadowFocus, ShadowModels, ShadowOffer, ShadowOrder, ShadowPart } from './shadow-ports.js';
import type { ShadowSettings } from './settings.js';
import { combineOrders, parseJudgeAnswer } from './verdict.js';

/** The candidate's `max_tokens`: twice the served answer's length, within these bounds. */
const MIN_CANDIDATE_TOKENS = 256;
const MAX_CANDIDATE_TOKENS = 4_096;
/** Characters per token of the cost estimate a call reserves (a generous 3, not 4). */
const CHARS_PER_TOKEN = 3;
/** Judged pairs after which a settled task kind is judged no more (`ShadowJudgingSettings.settledPairCap`). */
export const SETTLED_PAIR_CAP = 100;

/** Judging can happen: enabled with a budget to spend. */
function isOn(settings: ShadowSettings | undefined): boolean {
  return settings?.enabled === true && settings.dailyBudgetUsd > 0;
}

export interface ShadowJudgingSettings {
  models: ShadowModels;
  /**
   * The organisation's settings (cached by the caller); undefined: off. A value returned
   * synchronously (a fresh cache entry) lets an offer that is off return at once.
   */
  settings: (orgId: string) => ShadowSettings | undefined | Promise<ShadowSettings | undefined>;
  budget: DailyShadowBudget;
  sink: JudgedPairSink;
  /** Most sampled requests waiting; beyond it they are dropped and counted. Default 100. */
  capacity?: number;
  /** Sampled requests judged at once per instance. Default 2. */
  concurrency?: number;
  /** Uniform in [0, 1): the sampling draw. Default `Math.random`. */
  random?: () => number;
  /**
   * Of a request's eligible candidates, those a judged pair could still change the routing
   * choice for (the router's learner, `ChoiceLearner.unsure`); none: the choice is settled. With
   * it the organisation's sample rate is a budget each offer earns (`SampleCredit`), spent on
   * every request whose choice is open (on an open candidate) and on a settled one at a quarter
   * of the rate until its task kind has `settledPairCap` pairs; without it each request is drawn
   * at the rate. Called after the answer went out.
   */
  focus?: (offer: ShadowOffer, candidates: readonly ModelInfo[]) => ShadowFocus;
  /**
   * Judged pairs (`ShadowFocus.judged`) at which a settled choice is judged no more, so a task kind
   * the learner has settled stops spending the judging budget. Default {@link SETTLED_PAIR_CAP}.
   */
  settledPairCap?: number;
  /**
   * With `focus`, the order the credit is spent in (the router's `createJudgingOrder`): each offer
   * that could be judged is `seen`; the credit goes to an open request whose task kind ranks
   * `first`, and to any other (a settled one still at a quarter of the rate, up to the cap) only
   * when the saved-up credit is full. The same credit, spent sooner where a pair gains the most.
   */
  order?: ShadowOrder;
  onError: (error: unknown) => void;
}

/** What shadow judging did on this instance. */
export interface ShadowStats extends QueueStats {
  skipped: Record<string, number>;
  judged: number;
  /** Sampled requests whose choice was open (`focus` named a candidate), and settled ones. */
  sampledOpen: number;
  sampledSettled: number;
  /** Calls not made because the organisation's day budget was spent. */
  overBudget: number;
}

/**
 * Shadow judging (docs/routing.md): `offer` takes an answered request and returns at once; in a
 * later macrotask the request is sampled at the organisation's rate and, when it may be re-sent,
 * queued (bounded; dropped and counted when full). A job sends the same request to a candidate,
 * asks the judge in both orders and hands the verdict to the sink. Each call is made only when
 * the organisation's day budget can take its most possible cost.
 */
export class ShadowJudging {
  private readonly queue: BoundedQueue;
  private readonly counts = { judged: 0, sampledOpen: 0, sampledSettled: 0, overBudget: 0, skipped: {} as Record<string, number> };
  private readonly credit = new SampleCredit();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: ShadowJudgingSettings) {
    this.queue = new BoundedQueue({ capacity: deps.capacity ?? 100, concurrency: deps.concurrency ?? 2, onError: deps.onError });
  }

  /**
   * False when an offer from this organisation in this mode would surely be dropped: proxy mode
   * (never shadowed, docs/routing.md; not counted among the skips) or settings cached as off.
   * Synchronous and allocation-free, so the request path asks it before building an offer.
   */
  accepts(orgId: string, mode: IntelligenceMode): boolean {
    return this.settingsIfOn(orgId, mode) !== undefined;
  }

  offer(offer: ShadowOffer): void {
    const settings = this.settingsIfOn(offer.caller.org.id, offer.mode);
    if (settings === undefined) return;
    const considered = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.consider(offer, settings)).catch(this.deps.onError);
    this.pending.add(considered);
    void considered.finally(() => this.pending.delete(considered));
  }

  stats(): ShadowStats {
    return { ...this.queue.stats(), ...this.counts, skipped: { ...this.counts.skipped } };
  }

  /** Resolves once every offer so far was considered and every queued job ran. */
  async idle(): Promise<void> {
    await Promise.all([...this.pending]);
    await this.queue.idle();
  }

  private skip(reason: string): void {
    this.counts.skipped[reason] = (this.counts.skipped[reason] ?? 0) + 1;
  }

  /** The organisation's settings (or their load in flight) unless this mode or the cached settings say off: the one rule of `accepts` and `offer`. */
  private settingsIfOn(orgId: string, mode: IntelligenceMode): ShadowSettings | Promise<ShadowSettings | undefined> | undefined {
    if (mode === 'proxy') return undefined;
    const settings = this.deps.settings(orgId);
    return settings instanceof Promise || isOn(settings) ? settings : undefined;
  }

  private async consider(offer: ShadowOffer, cached: ShadowSettings | Promise<ShadowSettings | undefined>): Promise<void> {
    const settings = await cached;
    if (!settings || !isOn(settings)) return;
    const reason = shadowSkipReason(offer);
    const seen = reason ? undefined : this.see(offer, settings);
    if (!this.earned(offer, settings)) return;
    if (reason) return this.skip(reason);
    const judge = this.deps.models.permitted(offer.caller, settings.judgeModel);
    if (!judge) return this.skip('judge_not_permitted');
    const eligible = seen ?? this.candidates(offer, settings);
    if (eligible.length === 0) return this.skip('no_candidate');
    const pool = this.deps.focus ? this.focused(this.deps.focus, offer, eligible, settings) : eligible;
    if (!pool) return;
    const candidate = pool[Math.min(pool.length - 1, Math.floor(this.draw() * pool.length))]!;
    this.queue.offer(() => this.judgePair({ offer, settings, candidate, judge }));
  }

  /**
   * With an order, counts an offer that passed the skips on its task kind when it has candidates
   * (not counted as a skip) and returns them, so `consider` does not work them out again;
   * undefined without an order.
   */
  private see(offer: ShadowOffer, settings: ShadowSettings): readonly ModelInfo[] | undefined {
    const { order, focus } = this.deps;
    if (!order || !focus) return undefined;
    const eligible = this.candidates(offer, settings);
    if (eligible.length > 0) order.seen(offer, eligible);
    return eligible;
  }

  /** Whether the offer may be sampled: drawn at the rate, or (focused) the organisation has a request's worth of credit. */
  private earned(offer: ShadowOffer, settings: ShadowSettings): boolean {
    return this.deps.focus ? this.credit.earn(offer.caller.org.id, settings.sampleRate) : this.draw() < settings.sampleRate;
  }

  /**
   * The candidates to judge (the open ones, or every eligible one for a settled choice drawn at a
   * quarter of the rate while its task kind has fewer than the cap's pairs), the credit spent;
   * undefined: not sampled (a settled kind with its pairs is counted as `settled_judged_enough`).
   */
  private focused(focus: NonNullable<ShadowJudgingSettings['focus']>, offer: ShadowOffer, eligible: readonly ModelInfo[], settings: ShadowSettings): readonly ModelInfo[] | undefined {
    const { open, judged } = focus(offer, eligible);
    if (open.length === 0 && judged >= (this.deps.settledPairCap ?? SETTLED_PAIR_CAP)) {
      this.skip('settled_judged_enough');
      return undefined;
    }
    if (this.deferred(offer, eligible, open.length > 0, settings)) return undefined;
    if (open.length === 0 && this.draw() >= settings.sampleRate / 4) return undefined;
    this.credit.spend(offer.caller.org.id);
    this.counts[open.length > 0 ? 'sampledOpen' : 'sampledSettled']++;
    return open.length > 0 ? open : eligible;
  }

  /** With an order, the credit waits for an open request of the first-ranked kind unless it is full. */
  private deferred(offer: ShadowOffer, eligible: readonly ModelInfo[], open: boolean, settings: ShadowSettings): boolean {
    const { order } = this.deps;
    if (!order || this.credit.full(offer.caller.org.id, settings.sampleRate)) return false;
    return !(open && order.first(offer, eligible));
  }

  private draw(): number {
    return (this.deps.random ?? Math.random)();
  }

  /** The configured candidates the caller may use (or the pool's defaults, {@link defaultCandidates}), never the served model. */
  private candidates(offer: ShadowOffer, settings: ShadowSettings): readonly ModelInfo[] {
    const { models } = this.deps;
    const named = settings.candidateModels
      ? settings.candidateModels.map((slug) => models.permitted(offer.caller, slug)).filter((model): model is ModelInfo => model !== undefined)
      : defaultCandidates(models, offer);
    return named.filter((model) => model.id !== offer.served.id);
  }

  private async judgePair(job: { offer: ShadowOffer; settings: ShadowSettings; candidate: ModelInfo; judge: ModelInfo }): Promise<void> {
    const { offer, candidate, judge } = job;
    const maxTokens = Math.min(MAX_CANDIDATE_TOKENS, Math.max(MIN_CANDIDATE_TOKENS, offer.completionTokens * 2, offer.request.maxTokens ?? 0));
    const shadowRequest: ChatRequest = { ...offer.request, model: candidate.id, maxTokens, stream: false, includeUsage: false };
    const conversation = conversationText(offer.request);
    // The whole pair is reserved before its first call: pairs judged at once never leave one
    // another a candidate answer paid for and no budget left to judge it.
    if (!(await this.reservePair(job, shadowRequest, judgeRequest(judge.id, conversation, offer.answer, '')))) return;
    const shadow = await this.call(job, 'shadow', candidate, shadowRequest);
    if (!shadow) return;
    const first = await this.call(job, 'judge:1', judge, judgeRequest(judge.id, conversation, shadow.text, offer.answer));
    if (!first) return;
    const second = await this.call(job, 'judge:2', judge, judgeRequest(judge.id, conversation, offer.answer, shadow.text));
    if (!second) return;
    this.counts.judged++;
    await this.deps.sink.record({
      orgId: offer.caller.org.id,
      requestId: offer.requestId,
      taskKind: offer.taskKind ?? 'unknown',
      incumbent: offer.served.id,
      candidate: candidate.id,
      judge: judge.id,
      verdict: combineOrders(parseJudgeAnswer(first.text), parseJudgeAnswer(second.text)),
      candidateCostUsd: shadow.costUsd,
      judgeCostUsd: first.costUsd + second.costUsd,
      createdAt: new Date(),
    });
  }

  /**
   * Reserves the pair's most possible cost in the day's budget: the candidate's call, and two
   * judge calls each reading the conversation, the served answer and a candidate answer of at
   * most the candidate's `max_tokens` (`judgeWithout` is the judge's request without it).
   */
  private async reservePair(job: { offer: ShadowOffer; settings: ShadowSettings; candidate: ModelInfo; judge: ModelInfo }, shadowRequest: ChatRequest, judgeWithout: ChatRequest): Promise<boolean> {
    const candidateAnswerChars = (shadowRequest.maxTokens ?? 0) * CHARS_PER_TOKEN;
    const most = mostCostUsd(job.candidate, promptChars(shadowRequest), shadowRequest.maxTokens ?? 0) + 2 * mostCostUsd(job.judge, promptChars(judgeWithout) + candidateAnswerChars, judgeWithout.maxTokens ?? 0);
    if (await this.deps.budget.reserve(job.offer.caller.org.id, most, job.settings.dailyBudgetUsd)) return true;
    this.counts.overBudget++;
    return false;
  }

  /** One call of the pair (its cost was reserved with the pair); undefined when it failed. */
  private call(job: { offer: ShadowOffer }, part: ShadowPart, model: ModelInfo, request: ChatRequest) {
    const { offer } = job;
    return this.deps.models.call({ caller: offer.caller, requestId: offer.requestId, part, model, request });
  }
}

/**
 * The candidates when the organisation names none: the served model's three closest cheaper
 * models of the pool (a cheaper route within the tolerance) and its closest pricier one (a route up,
 * for a task kind the router sends to a cheap model that a pricier one beats).
 */
function defaultCandidates(models: ShadowModels, offer: ShadowOffer): readonly ModelInfo[] {
  return [...models.cheaperThan(offer.caller, offer.served).slice(0, 3), ...models.pricierThan(offer.caller, offer.served).slice(0, 1)];
}

/** Characters of a request's messages, as the budget counts its prompt. */
function promptChars(request: ChatRequest): number {
  return request.messages.reduce((sum, message) => sum + JSON.stringify(message.content ?? '').length, 0);
}

/** The most a call can cost: its prompt (at CHARS_PER_TOKEN) and `maxTokens` of output at the model's prices, USD. */
function mostCostUsd(model: ModelInfo, chars: number, maxTokens: number): number {
  return (Math.ceil(chars / CHARS_PER_TOKEN) * model.inputPricePerMTok + maxTokens * model.outputPricePerMTok) / 1e6;
}
