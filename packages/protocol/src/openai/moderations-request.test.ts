import { describe, expect, it } from 'vitest';
import { decodeModerationsRequest } from './moderations-request.js';

describe('decodeModerationsRequest', () => {
  it('takes a string, strings, or the multimodal parts; model is optional', () => {
    expect(decodeModerationsRequest({ input: 'hi' })).toEqual({ input: 'hi' });
    expect(decodeModerationsRequest({ input: ['a', 'b'], model: 'omni-moderation-latest' })).toEqual({ input: ['a', 'b'], model: 'omni-moderation-latest' });
    const parts = [{ type: 'text', text: 'a cat' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }];
    expect(decodeModerationsRequest({ input: parts }).input).toEqual(parts);
  });

  it.each([[{}], [{ input: [] }], [{ input: 42 }], [{ input: [{ type: 'audio' }] }], [{ input: ['a', 2] }]])('refuses %j with 400 on input', (body) => {
    expect(() => decodeModerationsRequest(body)).toThrow(expect.objectContaining({ status: 400, param: expect.stringMatching(/^input/) }));
  });
});
