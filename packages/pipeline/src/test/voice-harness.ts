import { createCatalog } from '@svc/catalog';
import { type Caller, type ChatRequest, ProviderError } from '@svc/core';
import { createMemoryKv } from '@svc/kv';
import type { ActualUsage, AdmitRequest, Reservation } from '@svc/billing';
import type { Provider, RecognitionRequest, SpeechRequest } from '@svc/providers';
import { createMetrics } from '@svc/telemetry';
import type { ChatJsonResponse, Exchange } from '../gateway.js';
import type { UsageEvent } from '../learn/learn-queue.js';
import { caller } from './gateway-harness.js';
import { createKvVoiceSessionStore } from '../voice/voice-session.js';
import { resolveVoiceMode } from '../voice/voice-mode.js';
import type { VoiceChatDeps } from '../voice/voice-steps.js';

/**
 * A Deepgram-like provider for the voice stages' tests: it hears `seconds` of audio saying
 * `heard`, and speaks `RIFF` plus the text. `failSpeech` makes text to speech fail.
 */
export function speechProvider(id: string, options: { heard?: string; seconds?: number; language?: string; failSpeech?: boolean } = {}) {
  const recognitions: RecognitionRequest[] = [];
  const speeches: SpeechRequest[] = [];
  const provider: Provider = {
    id,
    chat: () => Promise.reject(new Error('not used')),
    stream: () => Promise.reject(new Error('not used')),
    async recognize(request) {
      recognitions.push(request);
      return { text: options.heard ?? 'What is the weather like?', ...(options.language ? { language: options.language } : {}), ...(options.seconds === undefined ? {} : { durationSeconds: options.seconds }) };
    },
    async speech(request) {
      speeches.push(request);
      if (options.failSpeech) throw new ProviderError({ provider: id, kind: 'server', message: 'speech failed', upstreamStatus: 500 });
      return { contentType: 'audio/mpeg', body: (async function* () { yield new TextEncoder().encode(`RIFF${request.input}`); })() };
    },
  };
  return { provider, recognitions, speeches };
}

/** What the fake limiter saw: each admission's estimate and each settlement. */
export interface LimiterLog {
  admitted: AdmitRequest[];
  settled: ActualUsage[];
  released: number;
}

/** Voice deps over the given providers with a recording ledger and limiter, sessions in an in-process kv, and a scripted chat gateway. */
export function voiceSetup(providers: Provider[], options: { feePerMinute?: number; reply?: string; own?: Provider; failChat?: boolean; defaultMode?: Caller['org']['defaultIntelligenceMode'] } = {}) {
  const usage: UsageEvent[] = [];
  const chats: ChatRequest[] = [];
  const chatContexts: Exchange[] = [];
  const limiter: LimiterLog = { admitted: [], settled: [], released: 0 };
  const byId = new Map(providers.map((p) => [p.id, p]));
  const reservation: Reservation = {
    headers: { 'x-ratelimit-limit-requests': '60' },
    charge: async () => {},
    settle: async (usage) => {
      limiter.settled.push(usage);
    },
    release: async () => {
      limiter.released++;
    },
  };
  const own = options.own;
  const deps: VoiceChatDeps = {
    catalog: createCatalog().forProviders(new Set([...byId.keys(), 'mock'])),
    providers: { get: (id) => byId.get(id) },
    learn: { recordUsage: (event) => usage.push(event) },
    metrics: createMetrics({ defaultMetrics: false }),
    limiter: {
      admit: async (request) => {
        limiter.admitted.push(request);
        return reservation;
      },
    },
    ...(own ? { byok: { forOrg: () => ({ get: (id: string) => (id === own.id ? own : undefined) }) } } : {}),
    voice: { platformFeePerMinute: options.feePerMinute ?? 0.002, sessions: createKvVoiceSessionStore({ kv: createMemoryKv() }) },
    gateway: {
      async chat(request, context): Promise<ChatJsonResponse> {
        chats.push(request);
        chatContexts.push(context);
        if (options.failChat) throw new ProviderError({ provider: 'mock', kind: 'overloaded', message: 'busy', upstreamStatus: 503 });
        const content = options.reply ?? `You said: ${String(request.messages.at(-1)?.content)}`;
        return {
          kind: 'json',
          result: { model: 'mock-speed', choices: [{ index: 0, message: { role: 'assistant', content }, finishReason: 'stop' }], usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } },
          metadata: {
            request_id: context.requestId,
            routing_decision: 'turbo lane via Pinned: mock/mock-speed',
            provider: 'mock',
            tier: 'T3',
            latency_ms: 1,
            requested_model: request.model,
            decision_source: 'Pinned',
            task_family: null,
            cost_usd: 0.0001,
            baseline_cost_usd: 0.0001,
            savings_usd: 0,
            savings_pct: 0,
            cost_attribution: 'svc',
            estimated_cost_usd: 0.0001,
            intelligence_mode: 'cache',
            model: 'mock/mock-speed',
          },
          headers: {},
        };
      },
    },
  };
  const context = (header?: string): Exchange => ({
    caller: { ...caller, org: { ...caller.org, defaultIntelligenceMode: options.defaultMode ?? null } },
    requestId: `req_${Math.random().toString(36).slice(2)}`,
    startedAt: performance.now(),
    signal: new AbortController().signal,
    // What the edge resolves: the header, else the organisation's default; proxy escalates to cache.
    mode: resolveVoiceMode(header, options.defaultMode ?? null),
  });
  return { deps, usage, chats, chatContexts, limiter, context };
}

/** Bytes of fake audio: `seconds` at the size estimate's 16 kB a second. */
export function audioOf(seconds: number) {
  return { file: new Uint8Array(16_000 * seconds), filename: 'speech.wav', fileType: 'audio/wav' };
}
