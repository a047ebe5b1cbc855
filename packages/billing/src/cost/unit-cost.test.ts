import { describe, expect, it } from 'vitest';
import { MissingPriceError, audioCost, imageCost, perMinuteCost, speechCost } from './unit-cost.js';

const image = { id: 'openai/dall-e-3', unitPrices: { perImage: { '1024x1024': 0.04, 'hd:1024x1024': 0.08, '1792x1024': 0.08, default: 0.04 } } };
const whisper = { id: 'openai/whisper-1', unitPrices: { perMinute: 0.006 } };
const tts = { id: 'openai/tts-1', unitPrices: { perMChars: 15 } };

describe('unit prices of the non-token endpoints', () => {
  it('prices images by quality and size, then size, then the default', () => {
    expect(imageCost(image, { count: 2, size: '1024x1024' })).toBe(0.08);
    expect(imageCost(image, { count: 1, size: '1024x1024', quality: 'hd' })).toBe(0.08);
    expect(imageCost(image, { count: 3, size: '512x512' })).toBeCloseTo(0.12, 10);
  });

  it('prices audio per minute by the started second, and speech per million characters', () => {
    expect(audioCost(whisper, 90)).toBeCloseTo(0.009, 10);
    expect(audioCost(whisper, 0.2)).toBeCloseTo(0.0001, 10);
    expect(speechCost(tts, 4096)).toBeCloseTo(0.06144, 10);
  });

  it('prices an hourly rate by the started second as well, and a per-minute fee the same way', () => {
    // 90 s of $0.04 per hour; 61.2 s of $0.002 per minute counted as 62 s.
    expect(audioCost({ id: 'groq/whisper-large-v3-turbo', unitPrices: { perHour: 0.04 } }, 90)).toBeCloseTo(0.001, 10);
    expect(perMinuteCost(61.2, 0.002)).toBeCloseTo((62 / 60) * 0.002, 10);
    expect(perMinuteCost(0, 0.002)).toBe(0);
  });

  it('refuses to bill a model without the price it needs as free', () => {
    expect(() => imageCost({ id: 'x/none' }, { count: 1, size: '1024x1024' })).toThrow(MissingPriceError);
    expect(() => audioCost(tts, 10)).toThrow(MissingPriceError);
    expect(() => speechCost(whisper, 10)).toThrow(MissingPriceError);
    expect(() => imageCost({ id: 'x/sized', unitPrices: { perImage: { '256x256': 0.01 } } }, { count: 1, size: '1024x1024' })).toThrow(/1024x1024/);
  });
});
