import type { BlockList } from 'node:net';
import type { Authenticator } from '@svc/auth';
import type { BatchRepository, OrgRepository, ResponseRepository, UsageRepository } from '@svc/db';
import type { Readiness } from '@svc/http-kit';
import type { McpGateway } from '@svc/mcp';
import type { MemoryStore } from '@svc/memory';
import type { EmbedDeps, Gateway, ImageStore, StoringLimiter, VoiceSettings } from '@svc/pipeline';
import type { Logger, Metrics, Tracing } from '@svc/telemetry';
import type { FileSettings } from './files/file-store.js';
import type { FeedbackDeps } from './routes/feedback.js';

/**
 * What the inference app needs; a Runtime provides all of it. The embed stage's deps (catalog,
 * providers, learn, breakers, limiter, byok) serve `/v1/embeddings`, which has no chat gateway path.
 */
export interface InferenceDeps extends Pick<EmbedDeps, 'catalog' | 'providers' | 'learn' | 'breakers' | 'byok'> {
  /** The limits: admission, and the stored reservations a batch holds its budget with from its creation. */
  limiter?: StoringLimiter;
  gateway: Gateway;
  authenticator: Authenticator;
  /** The relational store: settings write the organisation's defaults; a retrieved batch sums its lines' ledger rows. */
  db: { orgs: Pick<OrgRepository, 'update'>; usage: Pick<UsageRepository, 'byTag'> };
  /** Each organisation's memory: search, list and forget (`/v1/memory*`). */
  memory: Pick<MemoryStore, 'recall' | 'get' | 'list' | 'forget' | 'forgetSubject'>;
  /** The Responses API's kept answers (`store`, `previous_response_id`) and how many days they live. */
  responses: { store: Pick<ResponseRepository, 'save' | 'get' | 'delete'>; ttlDays: number };
  /** The MCP gateway (`/mcp`): the organisation's registered MCP servers as one, governed. */
  mcpGateway: Pick<McpGateway, 'handle' | 'modelServer' | 'modelServerTools' | 'modelToolCall'>;
  /** `/v1/files`: the stored files, the largest upload and how long a file lives. */
  files: FileSettings;
  /** `/v1/feedback`: the feedback table and the router's per-task learner. */
  requestFeedback: FeedbackDeps;
  /** `/v1/batches`: each organisation's batches and their lines (the batch worker runs them). */
  batches: BatchRepository;
  /** The batch worker of this instance, woken when a batch is submitted here; absent: batches wait for some worker's poll. */
  batchWorker?: { wake(): void };
  /** The voice endpoints' platform fee and sessions (`/v1/voice/*`). */
  voice: VoiceSettings;
  metrics: Metrics;
  logger: Logger;
  /** OpenTelemetry traces: a root span per request, a child per upstream attempt. */
  tracing: Tracing;
  readiness(): Promise<Readiness>;
  /** Generated images behind their URLs (`POST /v1/images/generations`, `GET /v1/images/files/<name>`). */
  images: ImageStore;
  /** SVC_PUBLIC_URL: the base of the URLs the gateway answers with; absent: derived from each request. */
  publicUrl?: string;
  /** SVC_TRUSTED_PROXIES: reverse proxies whose X-Forwarded-For names the client (whose wrong keys are throttled). */
  trustedProxies?: BlockList | undefined;
  /** SVC_METRICS_TOKEN: the Bearer token `/metrics` requires; absent: loopback callers only (metrics-access.ts). */
  metricsToken?: string;
  /** Largest accepted request body in bytes (413 above). */
  maxBodyBytes: number;
  /** SSE keep-alive comment interval while a stream is quiet. Default 15 s. */
  keepAliveMs?: number;
}
