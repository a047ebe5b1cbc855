import { createCatalog } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { chooseSttModel, chooseTtsModel } from './voice-model.js';

const all = createCatalog().forProviders(new Set(['openai', 'groq', 'deepgram', 'elevenlabs']));
const only = (...providers: string[]) => createCatalog().forProviders(new Set(providers));

describe('the default speech-to-text model by language', () => {
  it('sends English and unspecified speech to the cheapest low-latency model, other languages to a classic multilingual one', () => {
    expect(chooseSttModel(all, undefined, 'en').id).toBe('groq/whisper-large-v3-turbo');
    expect(chooseSttModel(all, undefined, undefined).id).toBe('groq/whisper-large-v3-turbo');
    expect(chooseSttModel(all, undefined, 'de').id).toBe('groq/whisper-large-v3');
  });

  it('chooses among the configured providers only', () => {
    expect(chooseSttModel(only('openai'), undefined, 'en').id).toBe('openai/gpt-4o-mini-transcribe');
    expect(chooseSttModel(only('openai'), undefined, 'fr').id).toBe('openai/whisper-1');
    expect(chooseSttModel(only('deepgram'), undefined, undefined).id).toBe('deepgram/nova-3');
    expect(chooseSttModel(only('elevenlabs'), undefined, 'en').id).toBe('elevenlabs/scribe_v2');
  });

  it('honours a named model, refusing one that is not speech-to-text or does not take the language', () => {
    expect(chooseSttModel(all, 'deepgram/nova-2', 'en').id).toBe('deepgram/nova-2');
    expect(chooseSttModel(all, 'whisper-1', undefined).id).toBe('openai/whisper-1');
    expect(() => chooseSttModel(all, 'openai/tts-1', 'en')).toThrow(expect.objectContaining({ status: 404, param: 'stt_model', code: 'model_not_found' }));
    const englishOnly = all.withOverrides([{ id: 'deepgram/nova-3', voice: { languages: ['en'], lowLatency: true } }]);
    expect(() => chooseSttModel(englishOnly, 'deepgram/nova-3', 'ja')).toThrow(expect.objectContaining({ status: 400, param: 'language' }));
    // Japanese by default skips the English-only model.
    expect(chooseSttModel(englishOnly.forProviders(new Set(['deepgram'])), undefined, 'ja').id).toBe('deepgram/nova-2');
  });

  it('answers 500 no provider configured without any speech-to-text model', () => {
    expect(() => chooseSttModel(only('anthropic'), undefined, 'en')).toThrow(expect.objectContaining({ status: 500, message: expect.stringContaining('No speech-to-text model') }));
  });
});

describe('the default text-to-speech model', () => {
  it('is the cheapest per character, of the provider when one is named', () => {
    expect(chooseTtsModel(all, undefined, undefined, 'tts_model').id).toBe('openai/gpt-4o-mini-tts');
    expect(chooseTtsModel(all, undefined, 'deepgram', 'tts_model').id).toBe('deepgram/aura');
    expect(chooseTtsModel(all, undefined, 'elevenlabs', 'tts_model').id).toBe('elevenlabs/eleven_flash_v2_5');
  });

  it('refuses a provider without a configured speech model, a model of another provider, a model that does not speak', () => {
    expect(() => chooseTtsModel(all, undefined, 'groq', 'tts_model')).toThrow(expect.objectContaining({ status: 400, param: 'provider' }));
    expect(() => chooseTtsModel(all, 'elevenlabs/eleven_v3', 'deepgram', 'tts_model')).toThrow(expect.objectContaining({ status: 400, param: 'provider' }));
    expect(() => chooseTtsModel(all, 'deepgram/nova-3', undefined, 'model')).toThrow(expect.objectContaining({ status: 404, param: 'model', code: 'model_not_found' }));
    expect(() => chooseTtsModel(only('groq'), undefined, undefined, 'model')).toThrow(expect.objectContaining({ status: 500 }));
  });
});
