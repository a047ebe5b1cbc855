import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { invalidRequest } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute } from '@svc/openapi';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';

export const adminBackupRoute = defineRoute({
  method: 'post',
  path: '/v1/admin/backup',
  operationId: 'backupStore',
  summary: 'Back up the embedded store',
  description:
    'Every table of the embedded store (PGlite) from one snapshot, as a gzip-compressed tar: a header (`svc-backup.json`: format, PostgreSQL version, schema level), the rows of each table in PostgreSQL COPY text format, and an end marker with row counts. Writes wait while it is taken; requests keep being answered. Restore it with `pnpm svc restore FILE` while no gateway runs on the directory. On PostgreSQL (`DATABASE_URL`) it answers 400 `not_supported`: back that up with pg_dump.',
  tags: ['Admin: operations'],
  auth: adminOnly,
  responses: { 200: { description: 'The backup (`application/gzip`).', content: { 'application/gzip': null } } },
  errors: [400],
});

/** `POST /v1/admin/backup`: the store's backup, streamed from its file, which is discarded afterwards. */
export function registerAdminBackup(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(adminBackupRoute, async (c) => {
    if (deps.db.kind !== 'pglite') throw invalidRequest('Backups through the admin API are of the embedded store; back up PostgreSQL with pg_dump or your provider\'s snapshots.', null, 'not_supported');
    const made = await deps.db.backup();
    const file = createReadStream(made.path);
    file.once('close', () => void made.discard());
    return c.body(Readable.toWeb(file) as ReadableStream, 200, {
      'content-type': 'application/gzip',
      'content-disposition': `attachment; filename="svc-backup-${new Date().toISOString().slice(0, 10)}.tgz"`,
    });
  });
}
