// The encoder's resident memory in a process of its own (RSS is per process, and the inference
// thread shares it):
//   pnpm --filter @svc/encoder bench:memory [--weights int8|fp32] [--texts 1000]
// Prints VmRSS (/proc/self/status) before the encoder starts, when it is ready (and VmHWM then:
// the load's own peak), after one embedding, after `texts` single embeddings (one at a time, no
// memo) and after 32 texts at the 256 word-piece cap, then VmHWM, the process's peak. Linux only.
// Imports the built package.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSentenceEncoder, type WeightFormat } from '@svc/encoder';
import { benchSentences } from './sentences.js';

const { values } = parseArgs({ options: { weights: { type: 'string', default: 'int8' }, texts: { type: 'string', default: '1000' } } });
const status = () => readFileSync('/proc/self/status', 'utf8');
const mib = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status())?.[1]) / 1024;
const baseline = mib('VmRSS');
const line = (label: string) => console.log(`| ${label} | ${mib('VmRSS').toFixed(0)} | +${(mib('VmRSS') - baseline).toFixed(0)} |`);

console.log(`weights ${values.weights}, Node ${process.version}\n| moment | VmRSS MiB | encoder MiB |\n|---|---:|---:|`);
line('before the encoder');
const encoder = createSentenceEncoder({ weights: values.weights as WeightFormat, cacheSize: 0 });
await encoder.ready;
line(`ready (load ${encoder.status().loadMs} ms)`);
console.log(`| the load's peak (VmHWM when ready) | ${mib('VmHWM').toFixed(0)} | +${(mib('VmHWM') - baseline).toFixed(0)} |`);
const texts = benchSentences(Number(values.texts));
await encoder.embed(texts.slice(0, 1));
line('after 1 embedding');
const cpu = process.cpuUsage();
for (const text of texts) await encoder.embed([text]);
const used = process.cpuUsage(cpu);
line(`after ${texts.length} more, one at a time (${((used.user + used.system) / 1000 / texts.length).toFixed(2)} ms CPU each)`);
await encoder.embed(Array.from({ length: 32 }, (_, i) => `${texts[i]} `.repeat(20)));
line('after 32 texts of 256 word pieces');
console.log(`| peak (VmHWM) | ${mib('VmHWM').toFixed(0)} | +${(mib('VmHWM') - baseline).toFixed(0)} |`);
await encoder.close();
