import { type Context, Hono } from 'hono';
import { RouteRegistry, apiHeaders, notFoundHandler, onError, recordRequest, refuseMalformedUrl, registerOpenApi, registerProbes } from '@svc/http-kit';
import { accessLog } from './access-log.js';
import { anthropicErrors } from './anthropic-errors.js';
import { authenticate } from './authenticate.js';
import type { InferenceDeps } from './deps.js';
import type { AppEnv } from './env.js';
import { REALTIME_PATHS } from './realtime/upgrade-request.js';
import { resolvedMode, voiceModeHeader } from './report-mode.js';
import { registerAudio } from './routes/audio.js';
import { registerBatches } from './routes/batches.js';
import { registerChatCompletions } from './routes/chat-completions.js';
import { registerCompletions } from './routes/completions.js';
import { registerEmbeddings } from './routes/embeddings.js';
import { registerFeedback } from './routes/feedback.js';
import { registerFiles } from './routes/files.js';
import { registerImageFiles } from './routes/image-files.js';
import { registerImageGenerations } from './routes/image-generations.js';
import { registerMcp } from './routes/mcp.js';
import { registerMemory } from './routes/memory.js';
import { registerMessageBatches } from './routes/message-batches.js';
import { registerMessages } from './routes/messages.js';
import { registerMessagesCountTokens } from './routes/messages-count-tokens.js';
import { registerModels } from './routes/models.js';
import { registerModerations } from './routes/moderations.js';
import { registerResponses } from './routes/responses.js';
import { registerSettings } from './routes/settings.js';
import { registerVoiceChat } from './routes/voice-chat.js';
import { registerVoiceRealtime } from './routes/voice-realtime.js';
import { registerVoiceSynthesize } from './routes/voice-synthesize.js';
import { registerVoiceTranscribe } from './routes/voice-transcribe.js';

/** Errors after authentication carry the mode the request resolved to, like every other response. */
function modeHeader(c: Context<AppEnv>): Record<string, string> | undefined {
  // Voice answers escalate proxy to cache: their own middleware reports them (report-mode.ts).
  if (c.req.path.startsWith('/v1/voice/') || REALTIME_PATHS.has(c.req.path)) return undefined;
  // The route's exchange holds the mode the body may have set; before it, header and org decide.
  const mode = c.get('exchange')?.mode ?? resolvedMode(c);
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
  app.use(apiHeaders());
  app.use(refuseMalformedUrl());
  app.use(accessLog(deps.logger, deps.tracing));
  const routes = new RouteRegistry(app, {
    authenticate: authenticate(deps),
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
  registerMessagesCountTokens(routes, deps);
  registerCompletions(routes, deps);
  registerEmbeddings(routes, deps);
  registerModerations(routes, deps);
  registerAudio(routes, deps);
  registerImageGenerations(routes, deps);
  registerImageFiles(routes, deps);
  registerResponses(routes, deps);
  registerModels(routes, deps);
  registerSettings(routes, deps);
  registerFeedback(routes, deps);
  registerMemory(routes, deps);
  registerMcp(routes, deps);
  registerFiles(routes, deps);
  registerBatches(routes, deps);
  registerMessageBatches(routes, deps);
  // Around the auth, so that voice errors (a 401 too) carry the voice intelligence mode.
  const voice = routes.around(voiceModeHeader());
  registerVoiceRealtime(voice);
  registerVoiceTranscribe(voice, deps);
  registerVoiceSynthesize(voice, deps);
  registerVoiceChat(voice, deps);
  options.extraRoutes?.(routes);
  return app;
}
