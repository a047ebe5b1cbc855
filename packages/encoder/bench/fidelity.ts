// int8 weights against fp32, on public sentences (the first lines of ../shared/data's QQP dev
// half and PAWS dev; the second half of QQP is reserved and never read):
//   pnpm --filter @svc/encoder bench:fidelity [--texts 3000] [--data ../../../shared/data/semcache]
// Prints the cosine of each text's int8 vector to its fp32 vector (mean, percentiles, min) and
// the CPU time per text of each format (embedMany, batches of 32, one core).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSentenceEncoder, type WeightFormat } from '@svc/encoder';

const { values } = parseArgs({ options: { texts: { type: 'string', default: '3000' }, data: { type: 'string', default: join(import.meta.dirname, '../../../../shared/data/semcache') } } });
const wanted = Number(values.texts);
const pairs = (file: string, lines: number) =>
  readFileSync(join(values.data, file), 'utf8')
    .split('\n')
    .slice(0, lines)
    .filter(Boolean)
    .flatMap((line) => {
      const { a, b } = JSON.parse(line) as { a: string; b: string };
      return [a, b];
    });
// QQP dev has 40,000 pairs: 4,000 lines stay well inside its first half.
const texts = [...new Set([...pairs('qqp-dev.jsonl', 4000).slice(0, Math.ceil(wanted / 2)), ...pairs('paws-dev.jsonl', 4000)])].slice(0, wanted);

async function vectorsOf(weights: WeightFormat): Promise<Float32Array[]> {
  const encoder = createSentenceEncoder({ weights, cacheSize: 0 });
  await encoder.ready;
  await encoder.embedMany(texts.slice(0, 64), { batchSize: 32 });
  const cpu = process.cpuUsage();
  const vectors = await encoder.embedMany(texts, { batchSize: 32 });
  const used = process.cpuUsage(cpu);
  console.log(`${weights}: ${((used.user + used.system) / 1000 / texts.length).toFixed(2)} ms CPU per text`);
  await encoder.close();
  return vectors;
}

const quantised = await vectorsOf('int8');
const exact = await vectorsOf('fp32');
const cosines = exact.map((v, i) => v.reduce((s, x, k) => s + x * quantised[i]![k]!, 0)).sort((a, b) => a - b);
const at = (q: number) => cosines[Math.floor(q * (cosines.length - 1))]!.toFixed(5);
const mean = cosines.reduce((s, c) => s + c, 0) / cosines.length;
console.log(`${texts.length} texts: cosine int8 to fp32 mean ${mean.toFixed(5)}, p1 ${at(0.01)}, p5 ${at(0.05)}, median ${at(0.5)}, min ${at(0)}`);
