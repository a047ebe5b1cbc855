import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { publicBaseUrl } from './public-url.js';

function baseOf(headers: Record<string, string>, configured?: string, url = 'http://127.0.0.1:8080/v1/x'): Promise<string> {
  const app = new Hono();
  app.get('/v1/x', (c) => c.text(publicBaseUrl(c, configured)));
  return Promise.resolve(app.request(url, { headers })).then((response) => response.text());
}

describe('publicBaseUrl', () => {
  it('is SVC_PUBLIC_URL when configured, whatever the request says', async () => {
    expect(await baseOf({ 'x-forwarded-host': 'evil.example', host: 'other' }, 'https://llm.example.com/gw')).toBe('https://llm.example.com/gw');
  });

  it('is the request\'s own scheme and Host otherwise', async () => {
    expect(await baseOf({})).toBe('http://127.0.0.1:8080');
    expect(await baseOf({ host: 'gateway.internal:8080' })).toBe('http://gateway.internal:8080');
  });

  it('follows X-Forwarded-Proto and X-Forwarded-Host (first hop) when well-formed', async () => {
    expect(await baseOf({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'llm.example.com, proxy.internal', host: 'gateway.internal' })).toBe('https://llm.example.com');
    expect(await baseOf({ 'x-forwarded-proto': 'gopher', 'x-forwarded-host': 'evil.example/path?', host: '[::1]:8080' })).toBe('http://[::1]:8080');
  });
});
