import { describe, expect, it } from 'vitest';
import { decodeImageGenerationRequest } from './image-generation-request.js';

function refusal(body: unknown): { status: number; type: string; param: string | null; message: string } {
  try {
    decodeImageGenerationRequest(body);
  } catch (error) {
    return error as { status: number; type: string; param: string | null; message: string };
  }
  throw new Error(`expected a refusal of ${JSON.stringify(body)}`);
}

const prompt = 'a lighthouse at dawn';

describe('decodeImageGenerationRequest', () => {
  it('defaults to DALL·E 3 rules: one 1024x1024 standard image as a URL', () => {
    expect(decodeImageGenerationRequest({ prompt })).toEqual({ prompt, n: 1, size: '1024x1024', quality: 'standard', responseFormat: 'url' });
  });

  it('keeps every option a model takes, and fills only the defaults it has', () => {
    expect(
      decodeImageGenerationRequest({ prompt, model: 'dall-e-3', size: '1792x1024', quality: 'hd', style: 'natural', response_format: 'b64_json', user: 'u-1' }),
    ).toEqual({ prompt, model: 'dall-e-3', n: 1, size: '1792x1024', quality: 'hd', style: 'natural', responseFormat: 'b64_json', user: 'u-1' });
    expect(decodeImageGenerationRequest({ prompt, model: 'openai/dall-e-2', n: 10, size: '256x256' })).toEqual({
      prompt,
      model: 'openai/dall-e-2',
      n: 10,
      size: '256x256',
      responseFormat: 'url',
    });
    expect(decodeImageGenerationRequest({ prompt, model: 'dall-e-2' })).toMatchObject({ size: '1024x1024' });
    expect(decodeImageGenerationRequest({ prompt, model: 'dall-e-2' }).quality).toBeUndefined();
    expect(
      decodeImageGenerationRequest({ prompt, model: 'gpt-image-1', n: 3, output_format: 'webp', background: 'transparent', moderation: 'low', output_compression: 70 }),
    ).toEqual({ prompt, model: 'gpt-image-1', n: 3, size: 'auto', quality: 'auto', responseFormat: 'url', outputFormat: 'webp', background: 'transparent', moderation: 'low', outputCompression: 70 });
  });

  it('treats explicit nulls as absent and accepts stream: false', () => {
    expect(decodeImageGenerationRequest({ prompt, model: null, n: null, size: null, style: null, response_format: null, stream: false })).toEqual({
      prompt,
      n: 1,
      size: '1024x1024',
      quality: 'standard',
      responseFormat: 'url',
    });
  });

  it.each([
    ['a missing prompt', { model: 'dall-e-3' }, 'prompt', /Missing required parameter: 'prompt'/],
    ['an empty prompt', { prompt: '' }, 'prompt', /non-empty string/],
    ['n = 0', { prompt, model: 'dall-e-2', n: 0 }, 'n', /between 1 and 10 \(got 0\)/],
    ['n = 11', { prompt, model: 'dall-e-2', n: 11 }, 'n', /between 1 and 10 \(got 11\)/],
    ['n = 1.5', { prompt, model: 'dall-e-2', n: 1.5 }, 'n', /integer/],
    ['n = 2 on dall-e-3', { prompt, model: 'dall-e-3', n: 2 }, 'n', /must be 1 for dall-e-3 \(got 2\)/],
    ['n = 2 on the default model', { prompt, n: 2 }, 'n', /must be 1 for dall-e-3/],
    ['a dall-e-2 size on dall-e-3', { prompt, model: 'dall-e-3', size: '512x512' }, 'size', /'1024x1024', '1024x1792', '1792x1024' for dall-e-3 \(got '512x512'\)/],
    ['a dall-e-3 size on dall-e-2', { prompt, model: 'dall-e-2', size: '1792x1024' }, 'size', /'256x256', '512x512', '1024x1024' for dall-e-2/],
    ['a dall-e-3 size on gpt-image-1', { prompt, model: 'gpt-image-1', size: '1792x1024' }, 'size', /for gpt-image-1/],
    ['a size no model draws', { prompt, model: 'my-own-image-model', size: '100x100' }, 'size', /got '100x100'/],
    ['quality on dall-e-2', { prompt, model: 'dall-e-2', quality: 'hd' }, 'quality', /not supported by dall-e-2/],
    ['quality standard on dall-e-2', { prompt, model: 'dall-e-2', quality: 'standard' }, 'quality', /not supported by dall-e-2/],
    ['style on dall-e-2', { prompt, model: 'dall-e-2', style: 'vivid' }, 'style', /not supported by dall-e-2/],
    ['style on gpt-image-1', { prompt, model: 'gpt-image-1', style: 'natural' }, 'style', /only dall-e-3/],
    ['a GPT image quality on dall-e-3', { prompt, model: 'dall-e-3', quality: 'high' }, 'quality', /'standard', 'hd' for dall-e-3/],
    ['a DALL·E quality on gpt-image-1', { prompt, model: 'gpt-image-1', quality: 'hd' }, 'quality', /'low', 'medium', 'high', 'auto' for gpt-image-1/],
    ['an unknown quality', { prompt, quality: 'ultra' }, 'quality', /must be one of/],
    ['an unknown style', { prompt, style: 'cartoon' }, 'style', /'vivid', 'natural'/],
    ['a bad response_format', { prompt, response_format: 'png' }, 'response_format', /'url', 'b64_json'/],
    ['output_format on dall-e-3', { prompt, output_format: 'webp' }, 'output_format', /only GPT image models/],
    ['background on dall-e-2', { prompt, model: 'dall-e-2', background: 'transparent' }, 'background', /only GPT image models/],
    ['output_compression above 100', { prompt, model: 'gpt-image-1', output_compression: 101 }, 'output_compression', /between 0 and 100/],
    ['a prompt too long for dall-e-2', { prompt: 'x'.repeat(1001), model: 'dall-e-2' }, 'prompt', /at most 1000 characters for dall-e-2 \(got 1001\)/],
    ['a prompt too long for dall-e-3', { prompt: 'x'.repeat(4001) }, 'prompt', /at most 4000 characters for dall-e-3/],
    ['stream: true', { prompt, model: 'gpt-image-1', stream: true }, 'stream', /not supported/],
    ['a model that is not a string', { prompt, model: 3 }, 'model', /string/],
    ['a user that is not a string', { prompt, user: 42 }, 'user', /string/],
  ])('refuses %s with 400 naming the param', (_case, body, param, message) => {
    const error = refusal(body);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param });
    expect(error.message).toMatch(message);
  });

  it('takes the longest prompts each model reads', () => {
    expect(decodeImageGenerationRequest({ prompt: 'x'.repeat(1000), model: 'dall-e-2' }).prompt).toHaveLength(1000);
    expect(decodeImageGenerationRequest({ prompt: 'x'.repeat(4000) }).prompt).toHaveLength(4000);
    expect(decodeImageGenerationRequest({ prompt: 'x'.repeat(32_000), model: 'gpt-image-1' }).prompt).toHaveLength(32_000);
  });

  it('refuses a body that is not an object', () => {
    expect(refusal([{ prompt }])).toMatchObject({ status: 400, param: null });
  });
});
