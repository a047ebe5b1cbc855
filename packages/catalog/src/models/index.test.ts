import { describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog.js';
import { builtInModels } from './index.js';
import { openaiLegacyModels } from './openai-legacy.js';

const catalog = createCatalog();
const chat = catalog.list({ kind: 'chat' });

describe('built-in catalog', () => {
  it('is the default and passes validation', () => {
    expect(catalog.size).toBe(builtInModels.length);
    expect(() => createCatalog(builtInModels)).not.toThrow();
  });

  it('covers the major providers with enough chat and embedding models', () => {
    expect(chat.filter((m) => m.provider !== 'mock').length).toBeGreaterThanOrEqual(40);
    expect(catalog.list({ kind: 'embedding' }).filter((m) => m.provider !== 'mock').length).toBeGreaterThanOrEqual(5);
    for (const provider of ['openai', 'anthropic', 'gemini', 'groq', 'together', 'fireworks', 'deepseek', 'xai',
      'azure', 'bedrock', 'vertex', 'cohere', 'mistral', 'ollama']) {
      expect(catalog.list({ provider, kind: 'chat' }).length, provider).toBeGreaterThan(0);
    }
    for (const tier of ['T1', 'T2', 'T3'] as const) {
      expect(catalog.list({ kind: 'chat', tier }).length, tier).toBeGreaterThanOrEqual(5);
    }
  });

  it('uses `<provider>/<upstreamId>` slugs throughout', () => {
    for (const m of builtInModels) expect(m.id).toBe(`${m.provider}/${m.upstreamId}`);
  });

  it('prices cache reads below and cache writes at or above the base input rate', () => {
    for (const m of builtInModels) {
      if (m.cachedInputPricePerMTok !== undefined) expect(m.cachedInputPricePerMTok, m.id).toBeLessThan(m.inputPricePerMTok);
      if (m.cacheWritePricePerMTok !== undefined) {
        expect(m.cacheWritePricePerMTok, m.id).toBeGreaterThanOrEqual(m.inputPricePerMTok);
      }
    }
  });

  it('gives every embedding model its dimensions and no output price', () => {
    const embeddings = catalog.list({ kind: 'embedding' });
    expect(catalog.get('openai/text-embedding-3-small')?.dimensions).toBe(1536);
    expect(catalog.get('openai/text-embedding-3-large')?.dimensions).toBe(3072);
    for (const m of embeddings) {
      expect(m.dimensions, m.id).toBeGreaterThan(0);
      expect(m.outputPricePerMTok, m.id).toBe(0);
    }
  });

  it('flags a few top chat models as safety-critical, all of them T1', () => {
    const flagged = chat.filter((m) => m.safetyCritical);
    expect(flagged.length).toBeGreaterThanOrEqual(3);
    for (const m of flagged) expect(m.tier, m.id).toBe('T1');
  });

  it('marks free models only when they are zero-priced or open-weight', () => {
    expect(catalog.get('openrouter/meta-llama/llama-3.3-70b-instruct:free')).toMatchObject({ free: true });
    expect(catalog.get('openai/gpt-4o')).toMatchObject({ free: false, openWeight: false });
    for (const m of builtInModels.filter((x) => x.free)) {
      expect(m.openWeight || (m.inputPricePerMTok === 0 && m.outputPricePerMTok === 0), m.id).toBe(true);
    }
  });
});

describe('families across providers', () => {
  it('groups Llama 3.3 70B on every host that serves it', () => {
    const hosts = catalog.family('llama-3.3-70b').map((m) => m.provider);
    expect(hosts).toEqual(expect.arrayContaining(['groq', 'together', 'fireworks', 'cerebras', 'openrouter']));
    for (const m of catalog.family('llama-3.3-70b')) expect(m.openWeight, m.id).toBe(true);
  });

  it('groups other open-weight models on several hosts', () => {
    for (const family of ['llama-3.1-8b', 'gpt-oss-120b', 'deepseek-v3', 'deepseek-r1', 'qwen3-235b-a22b-instruct-2507']) {
      const providers = new Set(catalog.family(family).map((m) => m.provider));
      expect(providers.size, family).toBeGreaterThanOrEqual(2);
    }
  });

  const providersOf = (family: string) => catalog.family(family).map((m) => m.provider);

  it('groups one Claude model on Anthropic, Bedrock and Vertex, and nothing else with it', () => {
    expect(providersOf('claude-sonnet-4.5')).toEqual(['anthropic', 'bedrock', 'vertex']);
    expect(catalog.family('claude-sonnet-4.5').map((m) => m.upstreamId)).toEqual([
      'claude-sonnet-4-5',
      'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'claude-sonnet-4-5@20250929',
    ]);
    // A newer Sonnet is a different model: a pin on 4.5 must not fall back to it.
    expect(catalog.family('claude-sonnet-5.5').map((m) => m.id)).not.toContain('anthropic/claude-sonnet-4-5');
  });

  it('groups Llama 3.3 70B on the open-weight hosts, Bedrock and Ollama', () => {
    expect(providersOf('llama-3.3-70b')).toEqual(
      expect.arrayContaining(['groq', 'together', 'fireworks', 'bedrock', 'ollama']),
    );
  });

  it('groups the OpenAI models Azure serves, Gemini on Vertex and Cohere embeddings on Bedrock', () => {
    expect(providersOf('gpt-4o')).toEqual(['openai', 'azure']);
    expect(providersOf('gemini-2.5-flash')).toEqual(['gemini', 'vertex']);
    expect(providersOf('text-embedding-3-small')).toEqual(['openai', 'azure']);
    expect(providersOf('cohere-embed-english-v3')).toEqual(['cohere', 'bedrock']);
    expect(providersOf('mistral-large-3')).toEqual(['mistral', 'bedrock']);
  });

  it('lists a family at most once per provider, so a family is one model and never sibling versions', () => {
    for (const m of builtInModels) {
      const providers = providersOf(m.family);
      expect(providers.length, m.family).toBe(new Set(providers).size);
    }
  });

  it('agrees within a family on kind, open weights and capabilities a request may need', () => {
    for (const m of builtInModels) {
      for (const other of catalog.family(m.family)) {
        const same = [other.kind, other.openWeight, [...other.capabilities].sort()];
        expect(same, `${m.id} vs ${other.id}`).toEqual([m.kind, m.openWeight, [...m.capabilities].sort()]);
        if (m.kind === 'embedding') expect(other.dimensions, `${m.id} vs ${other.id}`).toBe(m.dimensions);
      }
    }
  });

  it('keeps one kind per family', () => {
    for (const m of builtInModels) {
      expect(new Set(catalog.family(m.family).map((x) => x.kind)).size, m.family).toBe(1);
    }
  });
});

describe('resolving client model names', () => {
  it('maps bare first-party names to their home provider', () => {
    expect(catalog.resolve('gpt-4o-mini')?.id).toBe('openai/gpt-4o-mini');
    expect(catalog.resolve('claude-sonnet-4-5')?.id).toBe('anthropic/claude-sonnet-4-5');
    expect(catalog.resolve('gemini-2.5-flash')?.id).toBe('gemini/gemini-2.5-flash');
    expect(catalog.resolve('deepseek-v4-pro')?.id).toBe('deepseek/deepseek-v4-pro');
  });

  it('keeps bare names on the home provider when a cloud serves the same name', () => {
    expect(catalog.resolve('gpt-4o')?.id).toBe('openai/gpt-4o');
    expect(catalog.resolve('claude-sonnet-5-5')?.id).toBe('anthropic/claude-sonnet-5-5');
    expect(catalog.resolve('gemini-2.5-pro')?.id).toBe('gemini/gemini-2.5-pro');
    expect(catalog.resolve('text-embedding-3-small')?.id).toBe('openai/text-embedding-3-small');
    expect(catalog.resolve('command-r-08-2024')?.id).toBe('cohere/command-r-08-2024');
  });

  it('resolves a bare name to the cloud when only the cloud is enabled', () => {
    const clouds = catalog.forProviders(new Set(['azure', 'vertex']));
    expect(clouds.resolve('gpt-4o')?.id).toBe('azure/gpt-4o');
    expect(clouds.resolve('claude-sonnet-5-5')?.id).toBe('vertex/claude-sonnet-5-5');
  });

  it('maps a name several hosts share to the first host in catalog order', () => {
    expect(catalog.resolve('openai/gpt-oss-120b')?.id).toBe('groq/openai/gpt-oss-120b');
  });

  it('resolves every bare upstream name to a model with that upstream name', () => {
    for (const m of builtInModels) expect(catalog.resolve(m.upstreamId)?.upstreamId, m.id).toBe(m.upstreamId);
  });
});

describe('local models (ollama)', () => {
  it('are free, open-weight and zero-priced', () => {
    const local = catalog.list({ provider: 'ollama' });
    expect(local.length).toBeGreaterThanOrEqual(5);
    for (const m of local) {
      expect([m.free, m.openWeight, m.inputPricePerMTok, m.outputPricePerMTok], m.id).toEqual([true, true, 0, 0]);
    }
  });
});

describe('embedded default (mock provider)', () => {
  const mock = catalog.forProviders(new Set(['mock']));

  it('offers one chat model per tier with tools, json and vision at small non-zero prices', () => {
    const byTier = Object.fromEntries(mock.list({ kind: 'chat' }).map((m) => [m.tier, m.id]));
    expect(byTier).toEqual({ T1: 'mock/mock-quality', T2: 'mock/mock-value', T3: 'mock/mock-speed' });
    for (const m of mock.list({ kind: 'chat' })) {
      expect(m.capabilities).toEqual(expect.arrayContaining(['tools', 'json', 'vision']));
      expect(m.inputPricePerMTok).toBeGreaterThan(0);
      expect(m.outputPricePerMTok).toBeGreaterThan(0);
    }
  });

  it('offers a 256-dimension embedding model', () => {
    expect(mock.list({ kind: 'embedding' }).map((m) => [m.id, m.dimensions])).toEqual([['mock/mock-embed', 256]]);
  });

  it('resolves bare mock names within the view', () => {
    expect(mock.resolve('mock-speed')?.id).toBe('mock/mock-speed');
    expect(mock.resolve('gpt-4o-mini')).toBeUndefined();
  });
});

describe('moderation, speech and transcription models', () => {
  it('resolve by bare name, are priced per unit and never join the chat pools', () => {
    expect(catalog.resolve('omni-moderation-latest')).toMatchObject({ id: 'openai/omni-moderation-latest', kind: 'moderation', free: true });
    expect(catalog.resolve('tts-1')).toMatchObject({ kind: 'speech', unitPrices: { perMChars: 15 } });
    expect(catalog.resolve('whisper-1')).toMatchObject({ kind: 'transcription', unitPrices: { perMinute: 0.006 } });
    for (const kind of ['speech', 'transcription'] as const) {
      for (const m of catalog.list({ kind })) expect(m.unitPrices, m.id).toBeDefined();
    }
    expect(chat.some((m) => m.id === 'openai/tts-1' || m.id === 'openai/omni-moderation-latest')).toBe(false);
  });
});

describe('image models', () => {
  it('are their own kind, priced per image by quality and size, DALL·E 3 first, and never join the chat pools', () => {
    const image = catalog.list({ kind: 'image' });
    expect(image[0]).toMatchObject({ id: 'openai/dall-e-3', family: 'dall-e-3' });
    expect(catalog.resolve('dall-e-2')).toMatchObject({ id: 'openai/dall-e-2', kind: 'image', unitPrices: { perImage: { '256x256': 0.016 } } });
    expect(catalog.resolve('dall-e-3')?.unitPrices?.perImage).toMatchObject({ 'standard:1024x1024': 0.04, 'hd:1792x1024': 0.12 });
    expect(catalog.resolve('gpt-image-1')).toMatchObject({ inputPricePerMTok: 5, outputPricePerMTok: 40 });
    expect(catalog.family('dall-e-3').map((m) => m.id)).toEqual(['openai/dall-e-3', 'azure/dall-e-3']);
    expect(chat.some((m) => m.kind === 'image' || m.family.startsWith('dall-e'))).toBe(false);
  });

  it('refuses an image model without per-image prices', () => {
    const dalle = catalog.get('openai/dall-e-2')!;
    expect(() => createCatalog([{ ...dalle, unitPrices: {} }])).toThrow(/perImage/);
    expect(() => createCatalog([{ ...dalle, unitPrices: { perImage: { '256x256': -1 } } }])).toThrow(/256x256/);
  });
});

describe('realtime models', () => {
  it('resolve by bare name, carry text and audio token prices and never join the chat pools', () => {
    const realtime = catalog.list({ kind: 'realtime' });
    expect(realtime.map((m) => m.id)).toEqual(expect.arrayContaining(['openai/gpt-realtime', 'openai/gpt-realtime-mini', 'openai/gpt-realtime-2']));
    expect(catalog.resolve('gpt-realtime')).toMatchObject({ kind: 'realtime', inputPricePerMTok: 4, outputPricePerMTok: 16, unitPrices: { audioInputPerMTok: 32, audioOutputPerMTok: 64 } });
    for (const m of realtime) {
      expect(m.unitPrices?.audioInputPerMTok, m.id).toBeGreaterThan(m.inputPricePerMTok);
      expect(m.unitPrices?.cachedAudioInputPerMTok, m.id).toBeLessThan(m.unitPrices?.audioInputPerMTok ?? 0);
      expect(m.unitPrices?.audioOutputPerMTok, m.id).toBeGreaterThan(m.outputPricePerMTok);
    }
    expect(chat.some((m) => m.kind === 'realtime')).toBe(false);
  });
});

describe('voice models', () => {
  const stt = catalog.list({ kind: 'transcription' });
  const tts = catalog.list({ kind: 'speech' });

  it('lists speech-to-text and text-to-speech models of OpenAI, Groq, Deepgram and ElevenLabs, each with a voice spec and a unit price', () => {
    expect(new Set(stt.map((m) => m.provider))).toEqual(new Set(['openai', 'groq', 'deepgram', 'elevenlabs']));
    expect(new Set(tts.map((m) => m.provider))).toEqual(new Set(['openai', 'deepgram', 'elevenlabs']));
    for (const m of stt) {
      expect(m.voice, m.id).toBeDefined();
      expect((m.unitPrices?.perMinute ?? m.unitPrices?.perHour ?? 0) > 0, m.id).toBe(true);
    }
    for (const m of tts) {
      expect(m.voice?.outputFormats?.length, m.id).toBeGreaterThan(0);
      expect(m.unitPrices?.perMChars, m.id).toBeGreaterThan(0);
    }
  });

  it('keeps published units: Groq and Scribe per hour, Deepgram per minute, speech per million characters', () => {
    expect(catalog.get('groq/whisper-large-v3-turbo')?.unitPrices).toEqual({ perHour: 0.04 });
    expect(catalog.get('elevenlabs/scribe_v2')?.unitPrices).toEqual({ perHour: 0.22 });
    expect(catalog.get('deepgram/nova-3')?.unitPrices).toEqual({ perMinute: 0.0043 });
    expect(catalog.get('deepgram/aura-2')?.unitPrices).toEqual({ perMChars: 30 });
    expect(catalog.get('elevenlabs/eleven_flash_v2_5')?.unitPrices).toEqual({ perMChars: 50 });
  });

  it('flags low-latency speech-to-text models for the English default, and leaves classic multilingual ones unflagged', () => {
    const fast = stt.filter((m) => m.voice?.lowLatency).map((m) => m.id);
    expect(fast).toEqual(expect.arrayContaining(['openai/gpt-4o-mini-transcribe', 'groq/whisper-large-v3-turbo', 'deepgram/nova-3']));
    expect(fast).not.toContain('openai/whisper-1');
    expect(fast).not.toContain('groq/whisper-large-v3');
  });
});

describe('audio-capable chat models', () => {
  it('take audio content parts, price audio prompt tokens apart, and are served only when named', () => {
    const audio = catalog.list({ kind: 'chat', provider: 'openai' }).filter((m) => m.routable === false && m.capabilities.includes('audio'));
    expect(audio.map((m) => m.id)).toEqual(['openai/gpt-audio-1.5', 'openai/gpt-audio', 'openai/gpt-audio-mini']);
    for (const m of audio) {
      expect(m.capabilities, m.id).toContain('audio');
      expect(m.audioInputPricePerMTok, m.id).toBeGreaterThan(m.inputPricePerMTok);
    }
    // Every other chat model is routable, but the legacy OpenAI models.
    expect(chat.filter((m) => m.routable === false)).toHaveLength(audio.length + openaiLegacyModels.length);
  });
});
