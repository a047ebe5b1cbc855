import { type Reservation, audioCost, charsPerToken, speechCost } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import type { ChatMessage, ChatRequest, IntelligenceMode } from '@svc/core';
import { internalError, invalidRequest } from '@svc/core';
import type { DecodedVoiceChatRequest } from '@svc/protocol';
import type { Exchange } from '../gateway.js';
import { type OrgProviders, admitUnits, orgProviders } from '../units/unit-stage.js';
import { type VoiceFee, recordVoiceFee, spokenSeconds, sumUsd, voiceFee } from './voice-billing.js';
import { chooseSttModel, chooseTtsModel } from '@svc/router';
import { type SynthesisPlan, planSynthesis } from './voice-models.js';
import type { VoiceTurn } from './voice-session.js';
import { fitForSpeech, readAudio } from './voice-speech-text.js';
import { type HeardSpeech, type VoiceChatDeps, estimatedSeconds, hearSpeech, recordProviderRow, releasedOnFailure, speakText, speakingCost, voiceHeaders } from './voice-steps.js';
import { requireAllowedModel } from '../chat/org-policy.js';

/** A `POST /v1/voice/chat` request, validated. */
export type VoiceChatRequest = DecodedVoiceChatRequest;

export interface VoiceChatResult {
  /** The conversation the turn was kept under (full mode), else null. */
  conversationId: string | null;
  /** Earlier turns fed to the chat step (full mode). */
  historyTurns: number;
  transcript: { text: string; language: string | null; durationSeconds: number; durationEstimated: boolean; model: string };
  /** `truncated` when the reply was cut at a sentence to fit the speech model's longest text. */
  reply: { text: string; model: string; truncated: boolean };
  /** The spoken reply; null when the reply was empty. */
  audio: { data: Uint8Array; contentType: string; outputFormat: string; model: string; voice: string } | null;
  latencyMs: { stt: number; chat: number; tts: number; total: number };
  cost: { sttUsd: number; chatUsd: number; ttsUsd: number; platformFeeUsd: number; totalUsd: number; billedSeconds: number };
  mode: IntelligenceMode;
  headers: Record<string, string>;
}

export interface VoiceChatOptions {
  /** Adjusts the chat step's request before it runs (the app maps the legacy `x-svc-*` headers onto it). */
  prepareChat?: (request: ChatRequest) => void;
}

/** Tokens the chat step may answer with: what the speech model can say at about 4 characters a token. */
function replyTokens(maxChars: number): number {
  return Math.max(16, Math.min(1_024, Math.floor(maxChars / charsPerToken)));
}

/**
 * `POST /v1/voice/chat`: speech to text, then one chat turn through the gateway's own chat
 * pipeline (routing with `svc.voice_mode`, its limits and ledger row `<request id>:chat`), then
 * text to speech of the reply. Voice intelligence mode: `proxy` escalates to `cache`; in `full`
 * mode with a conversation id the turn history is read from and written to the shared session
 * store and the id links the chat chain; in `cache` mode neither happens.
 *
 * The speech steps are admitted together (estimated prices plus the platform fee) and billed as
 * `<request id>:stt`, `<request id>:tts` and `<request id>:platform_fee` (on the heard seconds plus
 * the spoken reply's estimated seconds). A failed later step still bills the earlier ones.
 *
 * @throws GatewayError 400 (`stt_model`, `tts_model`, `provider`, `voice`, `output_format`,
 *   `language`, `file` when no speech was heard); 429/402; 500; the providers' errors.
 */
export async function chatByVoice(deps: VoiceChatDeps, request: VoiceChatRequest, context: Exchange, options: VoiceChatOptions = {}): Promise<VoiceChatResult> {
  const stt = requireAllowedModel(context.caller, chooseSttModel(deps.catalog, request.sttModel, request.language), 'stt_model');
  const tts = requireAllowedModel(context.caller, chooseTtsModel(deps.catalog, request.ttsModel, request.provider, 'tts_model'), 'tts_model');
  const plan = planSynthesis(tts, request);
  const maxChars = tts.voice?.maxChars ?? 4_096;
  const org = await orgProviders(deps, context.caller.org.id);
  const perMinute = deps.voice.platformFeePerMinute;
  const heardEstimate = estimatedSeconds(request);
  const replyEstimate = Math.min(maxChars, 1_000);
  const reservation = await admitUnits(deps, context, {
    tokens: 0,
    costUsd: audioCost(stt, heardEstimate) + speechCost(tts, replyEstimate) + voiceFee(heardEstimate + spokenSeconds(replyEstimate), perMinute).usd,
  });
  const heard = await releasedOnFailure(reservation, () => hearSpeech(deps, org, stt, request, request.language, context.signal));
  // From here every step bills what ran, whatever fails later.
  const bill = new VoiceTurnBill({ deps, context, org, stt, tts, heard, reservation });
  const transcript = heard.recognition.text.trim();
  const turn = await bill.onFailure(async () => {
    if (transcript === '') throw invalidRequest('No speech was recognised in the audio.', 'file', 'no_speech');
    const answered = await askChat({ deps, request, context, transcript, maxChars, options });
    const spoken = await speakReply({ deps, org, tts, plan, signal: context.signal }, answered.reply, maxChars);
    return { answered, spoken };
  });
  if (turn.spoken.text !== '') bill.spoke(turn.spoken.text);
  const fee = bill.settle();
  const { answered, spoken } = turn;
  if (answered.session) await answered.session.append(context.caller.org.id, request.conversationId!, [{ role: 'user', content: transcript }, { role: 'assistant', content: answered.reply }]);
  const providerUsd = sumUsd(heard.costUsd, bill.ttsUsd);
  const totalUsd = sumUsd(providerUsd, answered.chatUsd, fee.usd);
  const headers = voiceHeaders(context, context.mode, tts, { providerUsd, platformFeeUsd: fee.usd, totalUsd: sumUsd(providerUsd, fee.usd), billedSeconds: fee.seconds }, reservation);
  headers['x-svc-cost-usd'] = String(totalUsd);
  headers['x-svc-stt-model'] = stt.id;
  headers['x-svc-chat-model'] = answered.replyModel;
  headers['x-svc-latency-breakdown'] = JSON.stringify({ stt_ms: heard.latencyMs, chat_ms: answered.chatMs, tts_ms: spoken.ttsMs });
  return {
    conversationId: answered.session ? request.conversationId! : null,
    historyTurns: answered.historyTurns,
    transcript: { text: transcript, language: heard.recognition.language ?? request.language, durationSeconds: heard.seconds, durationEstimated: heard.estimated, model: stt.id },
    reply: { text: answered.reply, model: answered.replyModel, truncated: spoken.truncated },
    audio: spoken.audio,
    latencyMs: { stt: heard.latencyMs, chat: answered.chatMs, tts: spoken.ttsMs, total: Math.round(performance.now() - context.startedAt) },
    cost: { sttUsd: heard.costUsd, chatUsd: answered.chatUsd, ttsUsd: bill.ttsUsd, platformFeeUsd: fee.usd, totalUsd, billedSeconds: fee.seconds },
    mode: context.mode,
    headers,
  };
}

/**
 * What a voice turn bills once the speech was heard: the STT row, the TTS row when something was
 * spoken, the platform fee on the heard plus spoken seconds; the admission settled with what the
 * platform pays (an organisation's own keys cost it nothing). Settled exactly once.
 */
class VoiceTurnBill {
  ttsUsd = 0;
  private spokenText = '';
  private fee: VoiceFee | undefined;

  constructor(private readonly turn: { deps: VoiceChatDeps; context: Exchange; org: OrgProviders; stt: ModelInfo; tts: ModelInfo; heard: HeardSpeech; reservation: Reservation }) {}

  spoke(text: string): void {
    this.spokenText = text;
    this.ttsUsd = speakingCost(this.turn.tts, text);
  }

  /** Runs the turn's later steps; a failure still bills what ran before it. */
  async onFailure<T>(steps: () => Promise<T>): Promise<T> {
    try {
      return await steps();
    } catch (error) {
      this.settle();
      throw error;
    }
  }

  settle(): VoiceFee {
    if (this.fee) return this.fee;
    const { deps, context, org, stt, tts, heard, reservation } = this.turn;
    const fee = voiceFee(heard.seconds + spokenSeconds(this.spokenText.length), deps.voice.platformFeePerMinute);
    recordProviderRow(deps, context, stt, heard.costUsd, ':stt');
    if (this.spokenText !== '') recordProviderRow(deps, context, tts, this.ttsUsd, ':tts');
    recordVoiceFee(deps, context, fee);
    const charged = sumUsd(org.ownKey(stt.provider) ? 0 : heard.costUsd, org.ownKey(tts.provider) ? 0 : this.ttsUsd, fee.usd);
    void reservation.settle({ actualTokens: 0, actualCostUsd: charged });
    this.fee = fee;
    return fee;
  }
}

/** The chat step through the gateway's own pipeline; in full mode with a conversation, the session's turns go with it. */
async function askChat(step: { deps: VoiceChatDeps; request: VoiceChatRequest; context: Exchange; transcript: string; maxChars: number; options: VoiceChatOptions }) {
  const { deps, request, context } = step;
  const session = context.mode === 'full' && request.conversationId !== undefined ? deps.voice.sessions : undefined;
  const started = performance.now();
  const history: VoiceTurn[] = session ? await session.history(context.caller.org.id, request.conversationId!) : [];
  const chat = chatRequest(request, step.transcript, history, context.mode, step.maxChars, session !== undefined);
  step.options.prepareChat?.(chat);
  const answered = await deps.gateway.chat(chat, { ...context, requestId: `${context.requestId}:chat` });
  if (answered.kind !== 'json') throw internalError(undefined, 'The chat step streamed an answer to a non-stream request.');
  return {
    reply: answered.result.choices[0]?.message.content?.trim() ?? '',
    replyModel: answered.metadata.model ?? answered.result.model,
    chatUsd: answered.metadata.cost_usd ?? 0,
    historyTurns: history.length,
    session,
    chatMs: Math.round(performance.now() - started),
  };
}

/** The reply spoken, cut at a sentence to fit the speech model's longest text; no audio for an empty reply. */
async function speakReply(speech: { deps: VoiceChatDeps; org: OrgProviders; tts: ModelInfo; plan: SynthesisPlan; signal: AbortSignal }, reply: string, maxChars: number) {
  const { deps, org, tts, plan, signal } = speech;
  const fitted = fitForSpeech(reply, maxChars);
  const started = performance.now();
  let audio: VoiceChatResult['audio'] = null;
  if (fitted.text !== '') {
    const spoken = await speakText(deps, org, tts, plan, fitted.text, signal);
    const data = await readAudio(tts.provider, spoken.body, signal);
    audio = { data, contentType: spoken.contentType, outputFormat: plan.outputFormat, model: tts.id, voice: plan.voice };
  }
  return { text: audio ? fitted.text : '', audio, truncated: fitted.truncated, ttsMs: Math.round(performance.now() - started) };
}

/** The chat step: the system prompt, the session's turns (full mode), the heard text; voice routing on. */
function chatRequest(request: VoiceChatRequest, transcript: string, history: readonly VoiceTurn[], mode: IntelligenceMode, maxChars: number, linked: boolean): ChatRequest {
  const messages: ChatMessage[] = [];
  if (request.system !== undefined) messages.push({ role: 'system', content: request.system });
  for (const turn of history) messages.push({ role: turn.role, content: turn.content });
  messages.push({ role: 'user', content: transcript });
  return {
    model: request.model ?? 'svc/auto',
    messages,
    stream: false,
    n: 1,
    includeUsage: false,
    maxTokens: replyTokens(maxChars),
    svc: { voiceMode: 'true', intelligenceMode: mode, ...(linked ? { conversationId: request.conversationId! } : {}) },
  };
}
