/**
 * `node pglite-prepare.js '<settings JSON>'`: prepares an embedded data directory (initdb, or
 * the upgrade of an earlier release's) and exits, printing one JSON line: `{"note": ...}` or
 * `{"error": {"reason", "message"}}` (exit 3). See prepareDataDirApart.
 */
import { prepareInProcess } from './embedded/prepare-apart.js';
import { StoreError } from './embedded/store-error.js';

const settings = JSON.parse(process.argv[2] ?? '{}') as Parameters<typeof prepareInProcess>[0];
try {
  const note = await prepareInProcess(settings);
  process.stdout.write(`${JSON.stringify({ note: note ?? null })}\n`);
} catch (error) {
  if (!(error instanceof StoreError)) throw error;
  process.stdout.write(`${JSON.stringify({ error: { reason: error.reason, message: error.message } })}\n`);
  process.exit(3);
}
