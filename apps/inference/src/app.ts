import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { anthropicErrors } from './anthropic-errors.js';
import { authenticate } from './authenticate.js';
import type { InferenceDeps } from './deps.js';
import type { AppEnv } from './env.js';
import { notFoundHandler, onError } from './errors.js';
import { recordRequest } from './record-request.js';
import { reportMode, resolvedMode } from './report-mode.js';
import { RouteRegistry } from './route-registry.js';
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
import { registerOpenApi } from './routes/openapi.js';
import { registerProbes } from './routes/probes.js';
import { registerResponses } from './routes/responses.js';
import { registerSettings } from './routes/settings.js';
import { registerVoiceChat } from './routes/voice-chat.js';
import { registerVoiceRealtime } from './routes/voice-realtime.js';
import { registerVoiceSynthesize } from './routes/voice-synthesize.js';
import { registerVoiceTranscribe } from './routes/voice-transcribe.js';
import { voiceModeHeader } from './voice-mode-header.js';

/** Errors after authentication carry the mode the request resolved to, like every other response. */
function modeHeader(c: Context<AppEnv>): Record<string, string> | undefined {
  // Voice answers escalate proxy to cache: their own middleware reports them (voice-mode-header.ts).
  if (c.req.path.startsWith('/v1/voice/')) return undefined;
  const mode = resolvedMode(c);
  return mode ? { 'x-svc-intelligence-mode': mode } : undefined;
}

export interface InferenceAppOptions {
  /** Registers operations of the embedder's own (or a test's) after the built-in ones; they are described in `/openapi.json` too. */
  extraRoutes?: (routes: RouteRegistry<AppEnv>) => void;
}

/** The inference API (spec document 1) under `/v1`, plus the probes and `/openapi.json`. */
export function createInferenceApp(deps: InferenceDeps, options: InferenceAppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError(deps.logger, modeHeader));
  app.notFound(notFoundHandler);
  app.use(recordRequest(deps.metrics));
  const caller = authenticate(deps);
  const routes = new RouteRegistry(app, {
    authenticate: caller,
    errorFormats: { anthropic: anthropicErrors() },
    openapi: {
      title: 'svc gateway: inference API',
      version: '1',
      description: 'OpenAI- and Anthropic-compatible inference (spec document 1). Generated from the routes this instance serves.',
      apiKeyHeader: 'x-api-key',
    },
  });
  registerProbes(routes, deps);
  registerOpenApi(routes);
  registerChatCompletions(routes, deps);
  registerMessages(routes, deps);
  registerCompletions(routes, deps);
  registerEmbeddings(routes, deps);
  registerModerations(routes, deps);
  registerAudio(routes, deps);
  registerResponses(routes, deps);
  for (const path of ['/v1/models', '/v1/models/*', '/v1/settings', '/v1/memory/*']) app.use(path, reportMode());
  registerModels(routes, deps);
  registerSettings(routes, deps);
  registerMemory(routes, deps);
  // Merged from main, not on the registry yet: their own auth middleware as on main.
  const authenticated: MiddlewareHandler<AppEnv> = async (c, next) => {
    await caller(c);
    await next();
  };
  // Image URLs are capabilities, fetched without a key.
  registerImageFiles(app, deps);
  app.use('/v1/images/generations', authenticated);
  registerImageGenerations(app, deps);
  // Before authentication, so that voice errors (a 401 too) carry the voice intelligence mode.
  app.use('/v1/voice/*', voiceModeHeader());
  app.use('/v1/voice/*', authenticated);
  app.use('/v1/realtime', authenticated);
  registerVoiceRealtime(app);
  registerVoiceTranscribe(app, deps);
  registerVoiceSynthesize(app, deps);
  registerVoiceChat(app, deps);
  options.extraRoutes?.(routes);
  return app;
}
