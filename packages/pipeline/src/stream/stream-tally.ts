import { tokenCostUsd, tokensForChars } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import type { ChatResult, StreamEvent, Usage } from '@svc/core';
import type { HistogramSeries } from '@svc/telemetry';
import type { RequestSpend } from '../chat/request-spend.js';
import { StreamCollector } from './stream-collect.js';

/** Streamed pieces between two TPM charges. */
const CHARGE_EVERY = 32;

/**
 * What a stream has produced so far: the provider's usage when it sends one, the streamed text
 * (kept as references, joined only when it must be tokenised), the time to the first token, the
 * answer rebuilt from the events when it will be cached or verified, and the tokens charged to
 * the TPM buckets as they are produced (about 4 characters each, every 32 pieces).
 */
export class StreamTally {
  usage: Usage | undefined;
  /** False once anything but answer text was streamed (reasoning, a refusal, a tool call). */
  private plainText = true;
  private readonly pieces: string[] = [];
  private charged = 0;
  private readonly collector: StreamCollector | undefined;

  constructor(
    private readonly model: ModelInfo,
    private readonly spend: RequestSpend,
    private readonly settings: { byok: boolean; collect: boolean; startedAt: number; firstToken: HistogramSeries },
  ) {
    this.collector = settings.collect ? new StreamCollector(model.upstreamId) : undefined;
  }

  track(event: StreamEvent): void {
    this.collector?.add(event);
    if (event.type === 'usage') this.usage = event.usage;
    else if (event.type === 'text-delta') this.piece(event.text);
    else if (event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
      this.plainText = false;
      this.piece(event.text);
    } else if (event.type === 'tool-call-delta') {
      this.plainText = false;
      this.piece(event.argumentsDelta);
    }
  }

  /** The streamed answer's text when it was nothing but text (what a judge can compare), else undefined. */
  answerText(): string | undefined {
    return this.plainText ? this.text() : undefined;
  }

  /** Everything streamed, joined (for the usage estimate when the provider sent none). */
  text(): string {
    return this.pieces.join('');
  }

  /** The complete answer rebuilt from the events, when they were kept. */
  result(): ChatResult | undefined {
    return this.collector?.result();
  }

  private piece(text: string): void {
    if (this.pieces.length === 0) this.settings.firstToken.observe((performance.now() - this.settings.startedAt) / 1000);
    this.pieces.push(text);
    if (this.spend.limited && this.pieces.length - this.charged >= CHARGE_EVERY) this.chargeSince();
  }

  private chargeSince(): void {
    let chars = 0;
    for (let i = this.charged; i < this.pieces.length; i++) chars += this.pieces[i]!.length;
    this.charged = this.pieces.length;
    const tokens = tokensForChars(chars);
    this.spend.charge(tokens, this.settings.byok ? 0 : tokenCostUsd(this.model, { completionTokens: tokens }));
  }
}
