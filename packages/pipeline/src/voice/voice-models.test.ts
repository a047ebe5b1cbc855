import { createCatalog } from '@svc/catalog';
import { describe, expect, it } from 'vitest';
import { planSynthesis } from './voice-models.js';

const all = createCatalog().forProviders(new Set(['openai', 'groq', 'deepgram', 'elevenlabs']));

describe('planSynthesis', () => {
  const aura = all.get('deepgram/aura-2')!;
  const flash = all.get('elevenlabs/eleven_flash_v2_5')!;

  it('fills the model\'s default voice and format, and reads a format\'s sample rate', () => {
    expect(planSynthesis(aura, { text: 'Hi' })).toEqual({ voice: 'thalia-en', format: 'mp3', sampleRate: 22050, outputFormat: 'mp3_22050' });
    expect(planSynthesis(aura, { text: 'Hi', voice: 'orion-en', outputFormat: 'ulaw_8000' })).toEqual({ voice: 'orion-en', format: 'ulaw', sampleRate: 8000, outputFormat: 'ulaw_8000' });
    expect(planSynthesis(flash, { text: 'Hi', outputFormat: 'pcm_16000' })).toMatchObject({ voice: 'JBFqnCBsd6RMkjVDRZzb', format: 'pcm', sampleRate: 16000 });
  });

  it.each([
    ['voice', aura, { voice: 'alloy' }],
    ['voice', flash, { voice: 'not-a-voice-id' }],
    ['output_format', aura, { outputFormat: 'mp3_44100' }],
    ['output_format', all.get('openai/tts-1')!, { outputFormat: 'ulaw_8000' }],
    ['text', aura, { text: 'x'.repeat(2_001) }],
    ['text', all.get('openai/tts-1')!, { text: 'x'.repeat(4_097) }],
  ] as const)('answers 400 naming %s', (param, model, change) => {
    expect(() => planSynthesis(model, { text: 'Hi', ...change })).toThrow(expect.objectContaining({ status: 400, param }));
  });
});
