import { describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from './env.js';
import { providerConfig } from './provider-config.js';

describe('parseEnv', () => {
  it('has the operator contract defaults', () => {
    expect(parseEnv({})).toMatchObject({ PORT: 8080, CONTROL_PORT: 8081, HOST: '127.0.0.1', SVC_DATA_DIR: './.svc-data', LOG_LEVEL: 'info', providers: {}, SVC_VOICE_PLATFORM_FEE_PER_MINUTE: 0.002 });
    expect(parseEnv({ SVC_VOICE_PLATFORM_FEE_PER_MINUTE: '0' }).SVC_VOICE_PLATFORM_FEE_PER_MINUTE).toBe(0);
  });

  it('takes a master key of at least 32 characters and 128 estimated bits, and says why it refuses one', () => {
    expect(parseEnv({ SVC_MASTER_KEY: 'kY8rT2vXq9LmN4pZ7sW1bC6dF3gH5jQ0aE' }).SVC_MASTER_KEY).toBe('kY8rT2vXq9LmN4pZ7sW1bC6dF3gH5jQ0aE');
    expect(() => parseEnv({ SVC_MASTER_KEY: 'Sup3rS3cretKey42' })).toThrow('SVC_MASTER_KEY: SVC_MASTER_KEY must be at least 32 characters (it has 16); generate one, e.g. `openssl rand -base64 32`');
    expect(() => parseEnv({ SVC_MASTER_KEY: 'Sup3rS3cretKey42Sup3rS3cretKey42' })).toThrow(/SVC_MASTER_KEY is too predictable: about 1\d\d bits of entropy where 128 are needed/);
  });

  it('reads trusted proxies as addresses and CIDRs', () => {
    const proxies = parseEnv({ SVC_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7,::1' }).SVC_TRUSTED_PROXIES!;
    expect(proxies.check('10.1.2.3', 'ipv4')).toBe(true);
    expect(proxies.check('192.0.2.7', 'ipv4')).toBe(true);
    expect(proxies.check('192.0.2.8', 'ipv4')).toBe(false);
    expect(proxies.check('::1', 'ipv6')).toBe(true);
    expect(parseEnv({}).SVC_TRUSTED_PROXIES).toBeUndefined();
  });

  it('names the variable and the fix in one line', () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
      [{ SVC_MASTER_KEY: 'short' }, 'SVC_MASTER_KEY'],
      [{ SVC_MASTER_KEY: 'Sup3rS3cretKey42' }, 'SVC_MASTER_KEY'],
      [{ SVC_MASTER_KEY: 'Sup3rS3cretKey42Sup3rS3cretKey42' }, 'SVC_MASTER_KEY'],
      [{ SVC_MASTER_KEY: 'a'.repeat(64) }, 'SVC_MASTER_KEY'],
      [{ SVC_MASTER_KEY_GRACE_SECS: 'soon' }, 'SVC_MASTER_KEY_GRACE_SECS'],
      [{ SVC_TRUSTED_PROXIES: '10.0.0.0/33' }, 'SVC_TRUSTED_PROXIES'],
      [{ SVC_TRUSTED_PROXIES: 'proxy.internal' }, 'SVC_TRUSTED_PROXIES'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ SVC_MOCK_PROVIDER: 'maybe' }, 'SVC_MOCK_PROVIDER'],
      [{ OPENAI_BASE_URL: 'ftp://x' }, 'OPENAI_BASE_URL'],
      [{ SVC_PUBLIC_URL: 'llm.example.com' }, 'SVC_PUBLIC_URL'],
      [{ SVC_PUBLIC_URL: 'https://llm.example.com/?x=1' }, 'SVC_PUBLIC_URL'],
      [{ SVC_CONTROL_PUBLIC_URL: 'gateway.example.com' }, 'SVC_CONTROL_PUBLIC_URL'],
      [{ SVC_CONTROL_PUBLIC_URL: 'https://gateway.example.com/?x=1' }, 'SVC_CONTROL_PUBLIC_URL'],
      [{ SVC_CONTROL_PUBLIC_URL: 'https://gateway.example.com/#top' }, 'SVC_CONTROL_PUBLIC_URL'],
      [{ SVC_ALERT_REFUSALS_PER_MINUTE: '0' }, 'SVC_ALERT_REFUSALS_PER_MINUTE'],
      [{ SVC_ALERTS_INTERVAL_MS: '-1' }, 'SVC_ALERTS_INTERVAL_MS'],
      [{ DEEPGRAM_BASE_URL: 'ws://x' }, 'DEEPGRAM_BASE_URL'],
      [{ SVC_VOICE_PLATFORM_FEE_PER_MINUTE: '-0.01' }, 'SVC_VOICE_PLATFORM_FEE_PER_MINUTE'],
      [{ SVC_VOICE_PLATFORM_FEE_PER_MINUTE: 'cheap' }, 'SVC_VOICE_PLATFORM_FEE_PER_MINUTE'],
    ];
    for (const [env, variable] of cases) {
      let error: unknown;
      try {
        parseEnv(env);
      } catch (thrown) {
        error = thrown;
      }
      expect(error, variable).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as ConfigError).message.startsWith(`${variable}: `)).toBe(true);
      expect((error as ConfigError).message).not.toContain('\n');
    }
  });

  it('takes the public URL without its trailing slashes', () => {
    expect(parseEnv({ SVC_PUBLIC_URL: 'https://llm.example.com/gateway//' }).SVC_PUBLIC_URL).toBe('https://llm.example.com/gateway');
    expect(parseEnv({}).SVC_PUBLIC_URL).toBeUndefined();
  });

  it('reads the alert settings and the control plane public URL (without its trailing slash)', () => {
    expect(parseEnv({})).toMatchObject({ SVC_ALERTS_INTERVAL_MS: 30_000, SVC_ALERT_REFUSALS_PER_MINUTE: 20 });
    expect(parseEnv({}).SVC_CONTROL_PUBLIC_URL).toBeUndefined();
    expect(parseEnv({ SVC_CONTROL_PUBLIC_URL: 'https://cp.example.com/' }).SVC_CONTROL_PUBLIC_URL).toBe('https://cp.example.com');
    expect(parseEnv({ SVC_CONTROL_PUBLIC_URL: 'https://example.com/svc' }).SVC_CONTROL_PUBLIC_URL).toBe('https://example.com/svc');
  });

  it('reads key pools and base URLs per provider', () => {
    const env = parseEnv({ OPENAI_API_KEY: 'k1, k2,,k3', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1/', GROQ_API_KEY: 'g', OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1' });
    expect(env.providers.openai).toEqual({ apiKeys: ['k1', 'k2', 'k3'], baseUrl: 'http://127.0.0.1:9/v1' });
    expect(env.providers.groq).toEqual({ apiKeys: ['g'] });
    expect(env.providers.ollama).toEqual({ apiKeys: [], baseUrl: 'http://127.0.0.1:11434/v1' });
  });

  it('reads the voice providers like the others, and hands them to the registry as first-party providers', () => {
    const env = parseEnv({ DEEPGRAM_API_KEY: 'dg1,dg2', DEEPGRAM_BASE_URL: 'http://127.0.0.1:9/', ELEVENLABS_API_KEY: 'xi' });
    expect(env.providers.deepgram).toEqual({ apiKeys: ['dg1', 'dg2'], baseUrl: 'http://127.0.0.1:9' });
    const { config } = providerConfig(env, undefined);
    expect(config.deepgram).toEqual({ apiKeys: ['dg1', 'dg2'], baseUrl: 'http://127.0.0.1:9' });
    expect(config.elevenlabs).toEqual({ apiKeys: ['xi'] });
    expect(config.compatible).toEqual([]);
  });
});

describe('providerConfig', () => {
  it('enables the mock provider only when no provider key is set, unless told otherwise', () => {
    expect(providerConfig(parseEnv({}), undefined).mockEnabled).toBe(true);
    expect(providerConfig(parseEnv({ OPENAI_API_KEY: 'k' }), undefined).mockEnabled).toBe(false);
    expect(providerConfig(parseEnv({ OPENAI_API_KEY: 'k', SVC_MOCK_PROVIDER: '1' }), undefined).mockEnabled).toBe(true);
    expect(providerConfig(parseEnv({ SVC_MOCK_PROVIDER: '0' }), undefined).mockEnabled).toBe(false);
  });

  it('merges the config file with the environment, the environment winning', () => {
    const { config } = providerConfig(parseEnv({ OPENAI_API_KEY: 'env' }), {
      providers: { openai: { api_keys: ['file'] }, vllm: { api_keys: ['v'], base_url: 'http://127.0.0.1:8000/v1' } },
    });
    expect(config.openai).toEqual({ apiKeys: ['env'] });
    expect(config.compatible).toEqual([{ id: 'vllm', apiKeys: ['v'], baseUrl: 'http://127.0.0.1:8000/v1' }]);
  });

  it('wires Azure (endpoint required) and Cohere as native providers', () => {
    const { config } = providerConfig(
      parseEnv({ AZURE_API_KEY: 'az', AZURE_BASE_URL: 'https://r.openai.azure.com', AZURE_API_VERSION: 'v1', COHERE_API_KEY: 'co' }),
      { providers: { azure: { api_keys: ['ignored'], deployments: { 'gpt-4o': 'prod-4o' } } } },
    );
    expect(config.azure).toEqual({ apiKeys: ['az'], baseUrl: 'https://r.openai.azure.com', apiVersion: 'v1', deployments: { 'gpt-4o': 'prod-4o' } });
    expect(config.cohere).toEqual({ apiKeys: ['co'] });
    expect(config.compatible).toEqual([]);
    expect(() => parseEnv({ AZURE_API_KEY: 'az' })).toThrow(expect.objectContaining({ variable: 'AZURE_BASE_URL' }));
  });

  it('switches Bedrock on only with a key or explicit credentials and a region, Vertex with project and token', () => {
    expect(providerConfig(parseEnv({ AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 's', AWS_REGION: 'us-east-1' }), undefined).config.bedrock).toBeUndefined();
    const sigv4 = providerConfig(parseEnv({ AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 's', AWS_SESSION_TOKEN: 't', BEDROCK_REGION: 'eu-west-1' }), undefined);
    expect(sigv4.config.bedrock).toEqual({ region: 'eu-west-1', credentials: [{ accessKeyId: 'AKID', secretAccessKey: 's', sessionToken: 't' }] });
    expect(sigv4.mockEnabled).toBe(false);
    expect(providerConfig(parseEnv({ BEDROCK_API_KEY: 'b1,b2', AWS_REGION: 'us-west-2' }), undefined).config.bedrock).toEqual({ region: 'us-west-2', apiKeys: ['b1', 'b2'] });
    expect(() => providerConfig(parseEnv({ BEDROCK_API_KEY: 'b1' }), undefined)).toThrow(expect.objectContaining({ variable: 'BEDROCK_REGION' }));
    expect(() => parseEnv({ BEDROCK_REGION: 'moon' })).toThrow(expect.objectContaining({ variable: 'BEDROCK_REGION' }));
    expect(providerConfig(parseEnv({ VERTEX_PROJECT: 'p', VERTEX_ACCESS_TOKEN: 'ya29' }), undefined).config.vertex).toEqual({ project: 'p', location: 'global', accessToken: 'ya29' });
    expect(() => providerConfig(parseEnv({ VERTEX_PROJECT: 'p' }), undefined)).toThrow(expect.objectContaining({ variable: 'VERTEX_ACCESS_TOKEN' }));
  });
});

describe('dashboard settings', () => {
  it('defaults the dashboard origin to localhost on the control port and validates an explicit one', () => {
    expect(parseEnv({ CONTROL_PORT: '9000' }).dashboard).toMatchObject({ origin: 'http://localhost:9000', rpId: 'localhost', secureCookies: false });
    expect(parseEnv({ SVC_DASHBOARD_ORIGIN: 'https://gw.example.com' }).dashboard).toMatchObject({ rpId: 'gw.example.com', secureCookies: true });
    expect(() => parseEnv({ SVC_DASHBOARD_ORIGIN: 'http://127.0.0.1:8081' })).toThrow(expect.objectContaining({ variable: 'SVC_DASHBOARD_ORIGIN', message: expect.stringContaining('http://localhost:8081') }));
    expect(() => parseEnv({ SVC_SESSION_TTL_SECS: '5' })).toThrow(expect.objectContaining({ variable: 'SVC_SESSION_TTL_SECS' }));
  });
});
