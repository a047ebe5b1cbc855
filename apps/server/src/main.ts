import { reduceMemory } from '@svc/core';
import { ConfigError, parseEnv } from './runtime/env.js';
import { startMemoryTrimmer } from './runtime/free-memory.js';
import { type Role, start } from './start.js';

const roles: readonly Role[] = ['all', 'inference', 'control-plane'];

async function main(): Promise<void> {
  const role = (process.argv[2] ?? 'all') as Role;
  if (!roles.includes(role)) {
    console.error(`svc: unknown role '${role}'; use one of ${roles.join(', ')}`);
    process.exit(2);
  }
  let started: Awaited<ReturnType<typeof start>>;
  try {
    const env = parseEnv(process.env);
    // What the start left (module evaluation, the catalog, migrations' answers) and the young
    // generation it grew (16 MiB) stay resident until V8's memory reducer runs 8 s or more later:
    // given back before the ports open, so the 77-134 ms it holds the loop delays the start, not a request.
    started = await start(env, role, { beforeListen: reduceMemory });
    const { logger, mockEnabled, env: settings } = started.runtime;
    if (mockEnabled) {
      logger.warn(
        '*** MOCK PROVIDER ENABLED: no provider key is configured, so answers come from the built-in mock provider (models mock/*). Set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, ... for real models, or SVC_MOCK_PROVIDER=0 to turn it off. ***',
      );
    }
    if (!settings.SVC_MASTER_KEY) {
      logger.warn('SVC_MASTER_KEY is not set: create keys with `pnpm svc keys create --org NAME` (on the embedded store, while this gateway runs, the CLI goes through its admin API and needs SVC_MASTER_KEY set on both).');
    }
    for (const server of started.servers) logger.info({ port: server.port, host: settings.HOST }, `${server.name} listening on http://${settings.HOST}:${server.port}`);
    logger.info({ database: started.runtime.db.kind, kv: settings.REDIS_URL ? 'redis' : 'in_process', providers: [...started.runtime.providers.ids()] }, 'svc gateway ready');
    startMemoryTrimmer();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`svc: bad configuration: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const onSignal = (signal: string) => {
    started.runtime.logger.info({ signal }, 'shutting down: draining requests, flushing the ledger');
    started.stop().then(
      () => process.exit(0),
      async (error: unknown) => {
        started.runtime.logger.error({ err: error }, 'shutdown failed');
        // A step before it failed may have skipped `runtime.close()` (it runs once, so this waits for
        // a close under way): the ledger is flushed and the encoder's thread stopped before the
        // exit, since exiting while that thread is inside an onnxruntime run aborts the process.
        await started.runtime.close().catch(() => undefined);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

main().catch((error: unknown) => {
  console.error('svc: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
