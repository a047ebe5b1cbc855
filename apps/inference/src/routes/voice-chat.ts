import { invalidRequest } from '@svc/core';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import { chatByVoice } from '@svc/pipeline';
import { MAX_CONVERSATION_ID_CHARS, applyLegacyHeaders, decodeVoiceChatRequest, voiceChatFormSchema } from '@svc/protocol';
import type { Context } from 'hono';
import { type RouteAdder, readHeader } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { readAudioForm } from '../multipart-form.js';
import { exchangeOf } from '../request-context.js';
import { chatErrors } from './answer-headers.js';
import { voiceAnswerHeaders } from './voice-answer.js';

/** Headers the voice chat reads itself, kept off the chat step's legacy mapping. */
const ownHeaders = new Set(['x-svc-conversation-id', 'x-intelligence-mode']);

/** The session id: the form's `conversation_id`, else the `x-svc-conversation-id` header. */
function conversationHeader(c: Context<AppEnv>): string | undefined {
  const value = readHeader(c, 'x-svc-conversation-id')?.trim();
  if (value === undefined || value === '') return undefined;
  if (value.length > MAX_CONVERSATION_ID_CHARS) throw invalidRequest(`Header x-svc-conversation-id must be at most ${MAX_CONVERSATION_ID_CHARS} characters.`, 'x-svc-conversation-id');
  return value;
}

export const voiceChatRoute = defineRoute({
  method: 'post',
  path: '/v1/voice/chat',
  operationId: 'chatByVoice',
  summary: 'One spoken turn: speech to text, chat, text to speech',
  description:
    'The transcript goes through the chat pipeline (routing, limits, ledger) and the reply is spoken. The legacy `x-svc-*` routing headers (`x-svc-workflow`, `x-svc-tier`, ...) apply to the chat step; `x-svc-conversation-id` names the session when the form has no `conversation_id` (full mode keeps its turns).',
  tags: ['Voice'],
  auth: bearer('inference:audio'),
  body: { schema: voiceChatFormSchema, contentType: 'multipart/form-data', name: 'VoiceChatRequest' },
  responses: {
    200: jsonResponse(
      '`{object: "voice.chat", conversation_id, history_turns, transcript, reply, audio: {data (base64), content_type, format, model, voice}, latency_ms, cost, intelligence_mode}`.',
      voiceAnswerHeaders,
    ),
  },
  errors: chatErrors,
});

/**
 * `POST /v1/voice/chat` (multipart: `file` or `audio`, `language`, optional `stt_model`,
 * `tts_model`, `provider`, `voice`, `output_format`, `model`, `system`, `conversation_id`):
 * `{object: "voice.chat", conversation_id, history_turns, transcript, reply, audio: {data
 * (base64), content_type, format, model, voice}, latency_ms, cost, intelligence_mode}`. The legacy
 * `x-svc-*` routing headers (`x-svc-workflow`, `x-svc-tier`, ...) apply to the chat step. Scope
 * `inference:audio`.
 */
export function registerVoiceChat(routes: RouteAdder<AppEnv>, deps: InferenceDeps): void {
  routes.add(voiceChatRoute, async (c) => {
    const request = await decodeVoiceChatRequest(await readAudioForm(c));
    const header = conversationHeader(c);
    if (request.conversationId === undefined && header !== undefined) request.conversationId = header;
    const out = await chatByVoice(deps, request, exchangeOf(c, { voice: true }), {
      prepareChat: (chat) => applyLegacyHeaders(chat, (name) => (ownHeaders.has(name) ? undefined : readHeader(c, name))),
    });
    return c.json(
      {
        object: 'voice.chat',
        conversation_id: out.conversationId,
        history_turns: out.historyTurns,
        transcript: {
          text: out.transcript.text,
          language: out.transcript.language,
          duration: out.transcript.durationSeconds,
          duration_estimated: out.transcript.durationEstimated,
          model: out.transcript.model,
        },
        reply: out.reply,
        audio: out.audio && {
          data: Buffer.from(out.audio.data.buffer, out.audio.data.byteOffset, out.audio.data.byteLength).toString('base64'),
          content_type: out.audio.contentType,
          format: out.audio.outputFormat,
          model: out.audio.model,
          voice: out.audio.voice,
        },
        latency_ms: out.latencyMs,
        cost: {
          stt_usd: out.cost.sttUsd,
          chat_usd: out.cost.chatUsd,
          tts_usd: out.cost.ttsUsd,
          platform_fee_usd: out.cost.platformFeeUsd,
          total_usd: out.cost.totalUsd,
          billed_seconds: out.cost.billedSeconds,
        },
        intelligence_mode: out.mode,
      },
      200,
      out.headers,
    );
  });
}
