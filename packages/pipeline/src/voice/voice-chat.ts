import { audioCost, charsPerToken, speechCost } from '@svc/billing';
import type { ChatMessage, ChatRequest, IntelligenceMode } from '@svc/core';
import { internalError, invalidRequest } from '@svc/core';
import type { DecodedVoiceChatRequest } from '@svc/protocol';
import type { Exchange } from '../gateway.js';
import { admitUnits, orgProviders } from '../units/unit-stage.js';
import { recordVoiceFee, spokenSeconds, sumUsd, voiceFee } from './voice-billing.js';
import { chooseSttModel, chooseTtsModel, planSynthesis } from './voice-models.js';
import type { VoiceTurn } from './voice-session.js';
import { fitForSpeech, readAudio } from './voice-speech-text.js';
import { type VoiceChatDeps, estimatedSeconds, hearSpeech, recordProviderRow, releasedOnFailure, speakText, speakingCost, voiceHeaders } from './voice-steps.js';
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
  const { mode } = context;
  const stt = requireAllowedModel(context.caller.org, chooseSttModel(deps.catalog, request.sttModel, request.language));
  const tts = requireAllowedModel(context.caller.org, chooseTtsModel(deps.catalog, request.ttsModel, request.provider, 'tts_model'));
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
  let spokenText = '';
  let ttsUsd = 0;
  const settle = () => {
    const fee = voiceFee(heard.seconds + spokenSeconds(spokenText.length), perMinute);
    recordProviderRow(deps, context, stt, heard.costUsd, ':stt');
    if (spokenText !== '') recordProviderRow(deps, context, tts, ttsUsd, ':tts');
    recordVoiceFee(deps, context, fee);
    const charged = sumUsd(org.ownKey(stt.provider) ? 0 : heard.costUsd, org.ownKey(tts.provider) ? 0 : ttsUsd, fee.usd);
    void reservation.settle({ actualTokens: 0, actualCostUsd: charged });
    return fee;
  };

  const transcript = heard.recognition.text.trim();
  if (transcript === '') {
    settle();
    throw invalidRequest('No speech was recognised in the audio.', 'file', 'no_speech');
  }
  const session = mode === 'full' && request.conversationId !== undefined ? deps.voice.sessions : undefined;
  let history: VoiceTurn[] = [];
  let reply: string;
  let replyModel: string;
  let chatUsd: number;
  const chatStarted = performance.now();
  try {
    if (session) history = await session.history(context.caller.org.id, request.conversationId!);
    const chat = chatRequest(request, transcript, history, mode, maxChars, session !== undefined);
    options.prepareChat?.(chat);
    const answered = await deps.gateway.chat(chat, { ...context, requestId: `${context.requestId}:chat` });
    if (answered.kind !== 'json') throw internalError(undefined, 'The chat step streamed an answer to a non-stream request.');
    reply = answered.result.choices[0]?.message.content?.trim() ?? '';
    replyModel = answered.metadata.model ?? answered.result.model;
    chatUsd = answered.metadata.cost_usd ?? 0;
  } catch (error) {
    settle();
    throw error;
  }
  const chatMs = Math.round(performance.now() - chatStarted);

  const fitted = fitForSpeech(reply, maxChars);
  let audio: VoiceChatResult['audio'] = null;
  const ttsStarted = performance.now();
  if (fitted.text !== '') {
    try {
      const speech = await speakText(deps, org, tts, plan, fitted.text, context.signal);
      const data = await readAudio(tts.provider, speech.body, context.signal);
      spokenText = fitted.text;
      ttsUsd = speakingCost(tts, spokenText);
      audio = { data, contentType: speech.contentType, outputFormat: plan.outputFormat, model: tts.id, voice: plan.voice };
    } catch (error) {
      settle();
      throw error;
    }
  }
  const ttsMs = Math.round(performance.now() - ttsStarted);
  const fee = settle();
  if (session) await session.append(context.caller.org.id, request.conversationId!, [{ role: 'user', content: transcript }, { role: 'assistant', content: reply }]);

  const providerUsd = sumUsd(heard.costUsd, ttsUsd);
  const headers = voiceHeaders(context, mode, tts, { providerUsd, platformFeeUsd: fee.usd, totalUsd: sumUsd(providerUsd, fee.usd), billedSeconds: fee.seconds }, reservation);
  const totalUsd = sumUsd(providerUsd, chatUsd, fee.usd);
  headers['x-svc-cost-usd'] = String(totalUsd);
  headers['x-svc-stt-model'] = stt.id;
  headers['x-svc-chat-model'] = replyModel;
  headers['x-svc-latency-breakdown'] = JSON.stringify({ stt_ms: heard.latencyMs, chat_ms: chatMs, tts_ms: ttsMs });
  return {
    conversationId: session ? request.conversationId! : null,
    historyTurns: history.length,
    transcript: { text: transcript, language: heard.recognition.language ?? request.language, durationSeconds: heard.seconds, durationEstimated: heard.estimated, model: stt.id },
    reply: { text: reply, model: replyModel, truncated: fitted.truncated },
    audio,
    latencyMs: { stt: heard.latencyMs, chat: chatMs, tts: ttsMs, total: Math.round(performance.now() - context.startedAt) },
    cost: { sttUsd: heard.costUsd, chatUsd, ttsUsd, platformFeeUsd: fee.usd, totalUsd, billedSeconds: fee.seconds },
    mode,
    headers,
  };
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
