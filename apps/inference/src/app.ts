import { type Context, Hono } from 'hono';
import { authenticate } from './authenticate.js';
import type { InferenceDeps } from './deps.js';
import type { AppEnv } from './env.js';
import { notFoundHandler, onError } from './errors.js';
import { registerAudio } from './routes/audio.js';
import { registerChatCompletions } from './routes/chat-completions.js';
import { registerCompletions } from './routes/completions.js';
import { registerEmbeddings } from './routes/embeddings.js';
import { registerImageFiles } from './routes/image-files.js';
import { registerImageGenerations } from './routes/image-generations.js';
import { registerMemory } from './routes/memory.js';
import { registerMessages } from './routes/messages.js';
import { registerModels } from './routes/models.js';
import { registerModerations } from './routes/moderations.js';
import { registerVoiceRealtime } from './routes/voice-realtime.js';
import { recordRequest } from './record-request.js';
import { registerProbes } from './routes/probes.js';
import { registerResponses } from './routes/responses.js';
import { registerSettings } from './routes/settings.js';
import { registerVoiceChat } from './routes/voice-chat.js';
import { registerVoiceSynthesize } from './routes/voice-synthesize.js';
import { registerVoiceTranscribe } from './routes/voice-transcribe.js';
import { voiceModeHeader } from './voice-mode-header.js';
import { reportMode, resolvedMode } from './report-mode.js';

/** Errors after authentication carry the mode the request resolved to, like every other response. */
function modeHeader(c: Context<AppEnv>): Record<string, string> | undefined {
  // Voice answers escalate proxy to cache: their own middleware reports them (voice-mode-header.ts).
  if (c.req.path.startsWith('/v1/voice/')) return undefined;
  const mode = resolvedMode(c);
  return mode ? { 'x-svc-intelligence-mode': mode } : undefined;
}

/** The inference API (spec document 1) under `/v1`, plus the probes. */
export function createInferenceApp(deps: InferenceDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError(deps.logger, modeHeader));
  app.notFound(notFoundHandler);
  app.use(recordRequest(deps.metrics));
  registerProbes(app, deps);
  // Authenticates itself so auth failures use the Anthropic error shape: keep it before /v1/* auth.
  registerMessages(app, deps);
  // Image URLs are capabilities, fetched without a key: before /v1/* auth.
  registerImageFiles(app, deps);
  // Before authentication, so that voice errors (a 401 too) carry the voice intelligence mode.
  app.use('/v1/voice/*', voiceModeHeader());
  app.use('/v1/*', authenticate(deps));
  registerChatCompletions(app, deps);
  registerCompletions(app, deps);
  registerEmbeddings(app, deps);
  registerModerations(app, deps);
  registerAudio(app, deps);
  registerImageGenerations(app, deps);
  registerResponses(app, deps);
  for (const path of ['/v1/models', '/v1/models/*', '/v1/settings', '/v1/memory/*']) app.use(path, reportMode());
  registerModels(app, deps);
  registerSettings(app, deps);
  registerMemory(app, deps);
  registerVoiceRealtime(app);
  registerVoiceTranscribe(app, deps);
  registerVoiceSynthesize(app, deps);
  registerVoiceChat(app, deps);
  return app;
}
