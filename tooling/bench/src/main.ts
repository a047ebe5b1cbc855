#!/usr/bin/env node
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, USAGE } from './args.js';
import { ChildSet } from './children.js';
import { renderEncoder } from './render-encoder.js';
import { renderFloorSection } from './render-floor.js';
import { renderLightSection } from './render-light.js';
import { renderCacheSection, renderHttpReport, renderReport, renderRouter, spliceGenerated } from './render.js';
import { renderSemanticCost } from './render-cache.js';
import { runBench } from './run-bench.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DOC_HEADER = '# Benchmarks\n';

let options: ReturnType<typeof parseBenchArgs>;
try {
  options = parseBenchArgs(process.argv.slice(2));
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const children = new ChildSet({ settleMs: options.settleSec * 1000 });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`[bench] ${signal}: stopping child processes\n`);
    void children.stopAll().finally(() => process.exit(130));
  });
}

try {
  const report = await runBench(options, root, children);
  const resultsDir = join(root, 'tooling/bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const jsonPath = join(resultsDir, `bench-${report.machine.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderReport(report);
  console.log(markdown);
  process.stderr.write(`[bench] wrote ${jsonPath}\n`);
  if (options.writeDocs) {
    const docPath = join(root, 'docs/benchmarks.md');
    let doc = DOC_HEADER;
    try {
      doc = readFileSync(docPath, 'utf8');
    } catch {
      // first run: start the document
    }
    const http = renderHttpReport(report);
    if (http !== undefined) doc = spliceGenerated(doc, http);
    if (report.router) doc = spliceGenerated(doc, renderRouter(report.router, report.machine), 'router');
    if (report.semantic) doc = spliceGenerated(doc, renderSemanticCost(report.semantic, report.machine), 'semantic');
    const cache = renderCacheSection(report);
    if (cache !== undefined) doc = spliceGenerated(doc, cache, 'cache');
    if (report.encoder) doc = spliceGenerated(doc, renderEncoder(report.encoder, report.machine), 'encoder');
    const floor = renderFloorSection(report);
    if (floor !== undefined) doc = spliceGenerated(doc, floor, 'floor');
    const light = renderLightSection(report);
    if (light !== undefined) doc = spliceGenerated(doc, light, 'light');
    writeFileSync(docPath, doc);
    process.stderr.write(`[bench] updated ${docPath}\n`);
  }
} catch (error) {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await children.stopAll();
}
