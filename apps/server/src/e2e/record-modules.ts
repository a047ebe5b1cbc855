/**
 * Preload of `lazy-modules.test.ts` (`node --import tsx --import ./record-modules.ts main.ts`):
 * records every module the main thread resolves (ESM, through a resolve hook) and, on SIGUSR2,
 * writes them with the CommonJS modules it holds (`require.cache`) to `SVC_MODULE_RECORD`, one
 * URL or path a line. Worker threads (the store's, the encoder's) are not recorded.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const resolved = new Set<string>();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => resolved.add(url));
port1.unref();
const hook = 'let port; export function initialize(data) { port = data.port; } export async function resolve(specifier, context, next) { const result = await next(specifier, context); port.postMessage(result.url); return result; }';
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { port: port2 }, transferList: [port2] });

const cjs = createRequire(import.meta.url);
process.on('SIGUSR2', () => {
  const path = process.env.SVC_MODULE_RECORD ?? '';
  writeFileSync(`${path}.partial`, [...resolved, ...Object.keys(cjs.cache)].join('\n'));
  renameSync(`${path}.partial`, path);
});
