import { describe, expect, it } from 'vitest';
import { withoutGatewaySettings } from './svc-target.js';

describe('the environment svc is started with', () => {
  it('drops every setting of the gateway from the shell, so the rows run the shipped defaults', () => {
    const kept = withoutGatewaySettings({
      PATH: '/usr/bin',
      HOME: '/root',
      SVC_SENTENCE_ENCODER: 'hashed',
      SVC_CACHE_TTL_SECS: '0',
      OPENAI_API_KEY: 'sk-real',
      ANTHROPIC_BASE_URL: 'https://example.test',
      DATABASE_URL: 'postgres://x',
      REDIS_URL: 'redis://y',
      LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector',
      SVC_CONFIG: '/etc/svc.yaml',
      NODE_OPTIONS: '--max-old-space-size=128',
      MALLOC_ARENA_MAX: '8',
    });
    expect(kept).toEqual({ PATH: '/usr/bin', HOME: '/root' });
  });
});
