import { Hono } from 'hono';
import { authenticate } from './authenticate.js';
import type { InferenceDeps } from './deps.js';
import type { AppEnv } from './env.js';
import { notFoundHandler, onError } from './errors.js';
import { registerAudio } from './routes/audio.js';
import { registerChatCompletions } from './routes/chat-completions.js';
import { registerCompletions } from './routes/completions.js';
import { registerEmbeddings } from './routes/embeddings.js';
import { registerMemory } from './routes/memory.js';
import { registerMessages } from './routes/messages.js';
import { registerModels } from './routes/models.js';
import { registerModerations } from './routes/moderations.js';
import { recordRequest } from './record-request.js';
import { registerProbes } from './routes/probes.js';
import { registerResponses } from './routes/responses.js';
import { registerSettings } from './routes/settings.js';
import { registerVoiceChat } from './routes/voice-chat.js';
import { registerVoiceSynthesize } from './routes/voice-synthesize.js';
import { registerVoiceTranscribe } from './routes/voice-transcribe.js';
import { voiceModeHeader } from './voice-mode-header.js';

/** The inference API (spec document 1) under `/v1`, plus the probes. */
export function createInferenceApp(deps: InferenceDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError(deps.logger));
  app.notFound(notFoundHandler);
  app.use(recordRequest(deps.metrics));
  registerProbes(app, deps);
  // Authenticates itself so auth failures use the Anthropic error shape: keep it before /v1/* auth.
  registerMessages(app, deps);
  // Before authentication, so that voice errors (a 401 too) carry the voice intelligence mode.
  app.use('/v1/voice/*', voiceModeHeader());
  app.use('/v1/*', authenticate(deps));
  registerChatCompletions(app, deps);
  registerCompletions(app, deps);
  registerEmbeddings(app, deps);
  registerModerations(app, deps);
  registerAudio(app, deps);
  registerResponses(app, deps);
  registerModels(app, deps);
  registerSettings(app, deps);
  registerMemory(app, deps);
  registerVoiceTranscribe(app, deps);
  registerVoiceSynthesize(app, deps);
  registerVoiceChat(app, deps);
  return app;
}
