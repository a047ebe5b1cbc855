import { describe, expect, it } from 'vitest';
import { decodeSpeechRequest } from './speech-request.js';

function refusal(run: () => unknown): { status: number; param: string | null; message: string } {
  try {
    run();
  } catch (error) {
    return error as { status: number; param: string | null; message: string };
  }
  throw new Error('expected a refusal');
}

const speech = { model: 'tts-1', input: 'Hello there', voice: 'alloy' };

describe('decodeSpeechRequest', () => {
  it('defaults the format to mp3 and keeps speed and instructions', () => {
    expect(decodeSpeechRequest(speech)).toEqual({ model: 'tts-1', input: 'Hello there', voice: 'alloy', responseFormat: 'mp3' });
    expect(decodeSpeechRequest({ ...speech, response_format: 'opus', speed: 0.25, instructions: 'calm' })).toMatchObject({ responseFormat: 'opus', speed: 0.25, instructions: 'calm' });
    expect(decodeSpeechRequest({ ...speech, input: 'x'.repeat(4096), speed: 4 }).input).toHaveLength(4096);
  });

  it.each([
    [{ input: 'x'.repeat(4097) }, 'input'],
    [{ input: '' }, 'input'],
    [{ voice: 'robot' }, 'voice'],
    [{ response_format: 'ogg' }, 'response_format'],
    [{ speed: 0.2 }, 'speed'],
    [{ speed: 4.01 }, 'speed'],
    [{ model: '' }, 'model'],
  ])('refuses %j with 400 on its param', (change, param) => {
    const error = refusal(() => decodeSpeechRequest({ ...speech, ...change }));
    expect(error).toMatchObject({ status: 400, param });
  });

  it('names a missing voice', () => {
    expect(refusal(() => decodeSpeechRequest({ model: 'tts-1', input: 'x' }))).toMatchObject({ status: 400, param: 'voice' });
  });
});
