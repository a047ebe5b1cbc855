import { describe, expect, it } from 'vitest';
import { encodeImagesResponse } from './encode-images.js';

describe('encodeImagesResponse', () => {
  it('writes url or b64_json with the revised prompt, usage only when reported', () => {
    expect(encodeImagesResponse([{ url: 'https://gw/v1/images/files/a.png', revisedPrompt: 'a cat, watercolour' }], { created: 7 })).toEqual({
      created: 7,
      data: [{ url: 'https://gw/v1/images/files/a.png', revised_prompt: 'a cat, watercolour' }],
    });
    const body = encodeImagesResponse([{ b64Json: 'iVBORw0K' }], { created: 8, usage: { inputTokens: 14, outputTokens: 272, textTokens: 14 } });
    expect(body).toEqual({
      created: 8,
      data: [{ b64_json: 'iVBORw0K' }],
      usage: { input_tokens: 14, input_tokens_details: { text_tokens: 14, image_tokens: 0 }, output_tokens: 272, total_tokens: 286 },
    });
  });
});
