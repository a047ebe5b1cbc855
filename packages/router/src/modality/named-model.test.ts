import { createCatalog } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { choosesModel, embeddingModel, imageModel, unitModel } from './named-model.js';

const openai = createCatalog().forProviders(new Set(['openai']));
const none = createCatalog().forProviders(new Set<string>());

describe('the model of a modality', () => {
  it('is the one named, by slug or upstream name, when it is of the kind asked for', () => {
    expect(unitModel(openai, 'openai/whisper-1', 'transcription', 'transcription').id).toBe('openai/whisper-1');
    expect(unitModel(openai, 'whisper-1', 'transcription', 'transcription').id).toBe('openai/whisper-1');
  });

  it('refuses a name of another kind or unknown with 404 model_not_found on the field that named it', () => {
    expect(() => unitModel(openai, 'openai/gpt-4o-mini', 'moderation', 'moderation')).toThrow(expect.objectContaining({ status: 404, param: 'model', code: 'model_not_found' }));
    expect(() => embeddingModel(openai, 'nope', () => true)).toThrow(expect.objectContaining({ status: 404, code: 'model_not_found' }));
  });

  it('defaults to the first of the kind, and answers 500 no_provider_configured when none is configured', () => {
    expect(unitModel(openai, undefined, 'moderation', 'moderation').kind).toBe('moderation');
    expect(() => unitModel(none, undefined, 'moderation', 'moderation')).toThrow(expect.objectContaining({ status: 500, code: 'no_provider_configured' }));
    expect(() => imageModel(none, 'openai/gpt-image-1')).toThrow(expect.objectContaining({ status: 500, code: 'no_provider_configured' }));
  });

  it('chooses the cheapest served embedding model for auto and svc/auto', () => {
    expect(choosesModel('auto') && choosesModel('svc/auto') && !choosesModel('openai/text-embedding-3-small')).toBe(true);
    const cheapest = embeddingModel(openai, 'auto', () => true);
    for (const m of openai.list({ kind: 'embedding' })) expect(cheapest.inputPricePerMTok).toBeLessThanOrEqual(m.inputPricePerMTok);
    expect(() => embeddingModel(openai, 'svc/auto', () => false)).toThrow(expect.objectContaining({ status: 500, code: 'no_provider_configured' }));
  });
});
