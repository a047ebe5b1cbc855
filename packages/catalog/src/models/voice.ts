import type { ModelInfo } from '../model.js';
import { audio, released } from './define.js';

// Speech-to-text and text-to-speech models of the voice providers (OpenAI's own are in
// openai-audio.ts). Prices as published (see README "Where the prices come from"): Groq and
// ElevenLabs Scribe per hour of audio, Deepgram per minute, text-to-speech per million characters.

const multilingual = { languages: 'multilingual' } as const;

export const groqTranscriptionModels = /* @__PURE__ */ audio('groq', 'transcription', [
  { upstreamId: 'whisper-large-v3', family: 'whisper-large-v3', tier: 'T2', created: released('2023-11-06'), qualityPrior: 0.7,
    unitPrices: { perHour: 0.111 }, voice: multilingual },
  { upstreamId: 'whisper-large-v3-turbo', family: 'whisper-large-v3-turbo', tier: 'T3', created: released('2024-10-01'), qualityPrior: 0.66,
    unitPrices: { perHour: 0.04 }, voice: { ...multilingual, lowLatency: true } },
]);

export const deepgramTranscriptionModels = /* @__PURE__ */ audio('deepgram', 'transcription', [
  { upstreamId: 'nova-3', family: 'nova-3', tier: 'T3', created: released('2025-02-12'), qualityPrior: 0.74,
    unitPrices: { perMinute: 0.0043 }, voice: { ...multilingual, lowLatency: true } },
  { upstreamId: 'nova-2', family: 'nova-2', tier: 'T3', created: released('2023-10-03'), qualityPrior: 0.66,
    unitPrices: { perMinute: 0.0043 }, voice: multilingual },
]);

export const elevenlabsTranscriptionModels = /* @__PURE__ */ audio('elevenlabs', 'transcription', [
  { upstreamId: 'scribe_v2', family: 'scribe-v2', tier: 'T1', created: released('2025-11-11'), qualityPrior: 0.8,
    unitPrices: { perHour: 0.22 }, voice: multilingual },
  { upstreamId: 'scribe_v1', family: 'scribe-v1', tier: 'T2', created: released('2025-02-26'), qualityPrior: 0.76,
    unitPrices: { perHour: 0.22 }, voice: multilingual },
]);

// Deepgram Aura: `/v1/speak?model=<model>-<voice>` (aura-2-thalia-en), so a voice is `<name>-en`.
// Linear16 as raw PCM or WAV, mu-law/A-law at 8 or 16 kHz, MP3 and AAC at their fixed 22.05 kHz,
// Opus at 48 kHz, FLAC at the listed rates (Deepgram's "audio format combinations").
const deepgramFormats = [
  'mp3_22050',
  ...[8000, 16000, 24000, 32000, 48000].flatMap((rate) => [`pcm_${rate}`, `wav_${rate}`]),
  'ulaw_8000', 'ulaw_16000', 'alaw_8000', 'alaw_16000', 'opus_48000',
  'flac_8000', 'flac_16000', 'flac_22050', 'flac_32000', 'flac_48000', 'aac_22050',
];
const aura2Voices = [
  'thalia', 'amalthea', 'andromeda', 'apollo', 'arcas', 'aries', 'asteria', 'athena', 'atlas', 'aurora', 'callista', 'cora', 'cordelia',
  'delia', 'draco', 'electra', 'harmonia', 'helena', 'hera', 'hermes', 'hyperion', 'iris', 'janus', 'juno', 'jupiter', 'luna', 'mars',
  'minerva', 'neptune', 'odysseus', 'ophelia', 'orion', 'orpheus', 'pandora', 'phoebe', 'pluto', 'saturn', 'theia', 'vesta', 'zeus',
].map((name) => `${name}-en`);
const auraVoices = ['asteria', 'luna', 'stella', 'athena', 'hera', 'orion', 'arcas', 'perseus', 'angus', 'orpheus', 'helios', 'zeus'].map((name) => `${name}-en`);

export const deepgramSpeechModels = /* @__PURE__ */ audio('deepgram', 'speech', [
  { upstreamId: 'aura-2', family: 'aura-2', tier: 'T2', created: released('2025-04-15'), qualityPrior: 0.72, unitPrices: { perMChars: 30 },
    voice: { languages: ['en'], outputFormats: deepgramFormats, voices: aura2Voices, maxChars: 2_000 } },
  { upstreamId: 'aura', family: 'aura', tier: 'T3', created: released('2024-02-21'), qualityPrior: 0.6, unitPrices: { perMChars: 15 },
    voice: { languages: ['en'], outputFormats: deepgramFormats, voices: auraVoices, maxChars: 2_000 } },
]);

// ElevenLabs: `/v1/text-to-speech/{voice_id}?output_format=...`; any voice id of the account's
// library (20 letters and digits), George by default. MP3 at 44.1 kHz is sent at 128 kbit/s,
// 22.05 kHz at 32, 24 kHz at 48, Opus at 64.
const elevenlabsFormats = [
  'mp3_44100', 'mp3_22050', 'mp3_24000', 'opus_48000',
  ...[8000, 16000, 22050, 24000, 32000, 44100, 48000].flatMap((rate) => [`pcm_${rate}`, `wav_${rate}`]),
  'ulaw_8000', 'alaw_8000',
];
const elevenlabsVoice = (maxChars: number) =>
  ({ ...multilingual, outputFormats: elevenlabsFormats, defaultVoice: 'JBFqnCBsd6RMkjVDRZzb', voicePattern: '^[A-Za-z0-9]{20}$', maxChars }) as const;

export const elevenlabsSpeechModels = /* @__PURE__ */ audio('elevenlabs', 'speech', [
  { upstreamId: 'eleven_flash_v2_5', family: 'eleven-flash-v2.5', tier: 'T3', created: released('2024-12-10'), qualityPrior: 0.7,
    unitPrices: { perMChars: 50 }, voice: elevenlabsVoice(40_000) },
  { upstreamId: 'eleven_turbo_v2_5', family: 'eleven-turbo-v2.5', tier: 'T2', created: released('2024-07-19'), qualityPrior: 0.74,
    unitPrices: { perMChars: 50 }, voice: elevenlabsVoice(40_000) },
  { upstreamId: 'eleven_multilingual_v2', family: 'eleven-multilingual-v2', tier: 'T1', created: released('2023-08-22'), qualityPrior: 0.82,
    unitPrices: { perMChars: 100 }, voice: elevenlabsVoice(10_000) },
  { upstreamId: 'eleven_v3', family: 'eleven-v3', tier: 'T1', created: released('2025-06-05'), qualityPrior: 0.85,
    unitPrices: { perMChars: 100 }, voice: elevenlabsVoice(5_000) },
]);

/** Speech-to-text and text-to-speech models of Groq, Deepgram and ElevenLabs. */
export const voiceProviderModels: readonly ModelInfo[] = [
  ...groqTranscriptionModels,
  ...deepgramTranscriptionModels,
  ...elevenlabsTranscriptionModels,
  ...deepgramSpeechModels,
  ...elevenlabsSpeechModels,
];
