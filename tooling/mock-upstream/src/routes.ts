import { anthropicMessages } from './anthropic-messages.js';
import type { Answer, AnswerContext, Dialect } from './answer.js';
import { deepgramListen, deepgramSpeak } from './deepgram.js';
import { elevenlabsSpeech, elevenlabsTranscription } from './elevenlabs.js';
import { geminiGenerate } from './gemini-generate.js';
import { openaiChat } from './openai-chat.js';
import { openaiEmbeddings } from './openai-embeddings.js';
import { openaiImages } from './openai-images.js';
import { openaiModerations } from './openai-moderations.js';
import { openaiSpeech } from './openai-speech.js';
import { openaiTranscriptions } from './openai-transcriptions.js';

/** A POST route the mock answers: its dialect (for errors) and the answer builder. */
export interface Route {
  dialect: Dialect;
  /** `audio`: the body is raw audio, handed to `answer` as `{bytes, content_type}`. Default JSON (or multipart). */
  body?: 'audio';
  answer(body: Record<string, unknown>, ctx: AnswerContext): Answer;
}

const OPENAI_CHAT: Route = { dialect: 'openai', answer: openaiChat };
const OPENAI_EMBEDDINGS: Route = { dialect: 'openai', answer: openaiEmbeddings };
const OPENAI_MODERATIONS: Route = { dialect: 'openai', answer: openaiModerations };
const OPENAI_SPEECH: Route = { dialect: 'openai', answer: openaiSpeech };
const OPENAI_IMAGES: Route = { dialect: 'openai', answer: openaiImages };
const OPENAI_TRANSCRIPTIONS: Route = { dialect: 'openai', answer: openaiTranscriptions('transcribe') };
const OPENAI_TRANSLATIONS: Route = { dialect: 'openai', answer: openaiTranscriptions('translate') };
const ANTHROPIC_MESSAGES: Route = { dialect: 'anthropic', answer: anthropicMessages };
const DEEPGRAM_LISTEN: Route = { dialect: 'deepgram', body: 'audio', answer: deepgramListen };
const DEEPGRAM_SPEAK: Route = { dialect: 'deepgram', answer: deepgramSpeak };
const ELEVENLABS_STT: Route = { dialect: 'elevenlabs', answer: elevenlabsTranscription };
const ELEVENLABS_TTS_PATH = /^\/v1\/text-to-speech\/([^/]+)$/;
const GEMINI_PATH = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** Find the POST route for a path (without query); `query` is the raw query string or ''. */
export function matchRoute(path: string, query: string): Route | undefined {
  switch (path) {
    case '/v1/chat/completions':
    case '/chat/completions':
      return OPENAI_CHAT;
    case '/v1/embeddings':
    case '/embeddings':
      return OPENAI_EMBEDDINGS;
    case '/v1/moderations':
    case '/moderations':
      return OPENAI_MODERATIONS;
    case '/v1/audio/speech':
    case '/audio/speech':
      return OPENAI_SPEECH;
    case '/v1/images/generations':
    case '/images/generations':
      return OPENAI_IMAGES;
    case '/v1/audio/transcriptions':
    case '/audio/transcriptions':
      return OPENAI_TRANSCRIPTIONS;
    case '/v1/audio/translations':
    case '/audio/translations':
      return OPENAI_TRANSLATIONS;
    case '/v1/messages':
      return ANTHROPIC_MESSAGES;
    case '/v1/listen':
      return DEEPGRAM_LISTEN;
    case '/v1/speak':
      return DEEPGRAM_SPEAK;
    case '/v1/speech-to-text':
      return ELEVENLABS_STT;
  }
  const tts = ELEVENLABS_TTS_PATH.exec(path);
  if (tts) return { dialect: 'elevenlabs', answer: elevenlabsSpeech(decodeURIComponent(tts[1] ?? '')) };
  const gemini = GEMINI_PATH.exec(path);
  if (!gemini) return undefined;
  const model = decodeURIComponent(gemini[1] ?? '');
  const stream = gemini[2] === 'streamGenerateContent';
  const sse = new URLSearchParams(query).get('alt') === 'sse';
  return {
    dialect: 'gemini',
    answer: (body, ctx) => geminiGenerate(body, { model, stream, sse }, ctx),
  };
}

/** The dialect to use for errors on a path nobody routes (404s). */
export function dialectOf(path: string): Dialect {
  if (path.startsWith('/v1/messages')) return 'anthropic';
  if (path === '/v1/listen' || path === '/v1/speak') return 'deepgram';
  if (path.startsWith('/v1/text-to-speech/') || path === '/v1/speech-to-text') return 'elevenlabs';
  if (path.startsWith('/v1beta/')) return 'gemini';
  return 'openai';
}
