/** `node pglite-init.js <dataDir>`: creates a PGlite data directory and exits (see initDataDirApart). */
import { openPglite } from './pglite-start.js';

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('usage: pglite-init <dataDir>\n');
  process.exit(2);
}
const db = await openPglite(dataDir);
await db.close();
