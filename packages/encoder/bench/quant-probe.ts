import { readFileSync } from 'node:fs';
import { createInference } from '../src/worker/inference.js';
const vmrss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const lines = (f: string, n: number) => readFileSync(f, 'utf8').split('\n').slice(0, n).filter(Boolean).map((l) => JSON.parse(l) as { a: string; b: string });
const texts = [...new Set([...lines('/work/shared/data/semcache/qqp-dev.jsonl', 600), ...lines('/work/shared/data/semcache/paws-dev.jsonl', 400)].flatMap((p) => [p.a, p.b]))].slice(0, Number(process.argv[2] ?? 500));
const settings = { modelDir: undefined, maxTokens: 256, maxBatchTokens: 1024, intraOpNumThreads: 1, selfCheck: false, pairModel: true, niceness: 0 };
async function vectors(weights: 'fp32' | 'int8') {
  const r0 = vmrss();
  const inf = await createInference({ ...settings, weights });
  const r1 = vmrss();
  const ref = await inf.run(['This is an example sentence']);
  const cpu = process.cpuUsage();
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 32) { const v = await inf.run(texts.slice(i, i + 32)); for (let j = 0; j * 384 < v.length; j++) out.push(v.slice(j * 384, (j + 1) * 384)); }
  const used = process.cpuUsage(cpu);
  console.log(`${weights}: load +${(r1 - r0).toFixed(0)} MiB, after runs ${vmrss().toFixed(0)}; ${((used.user + used.system) / 1000 / texts.length).toFixed(2)} ms CPU/text; ref ${Array.from(ref.slice(0, 3), (x) => x.toFixed(5)).join(', ')}`);
  return out;
}
const q = await vectors((process.argv[3] ?? 'int8') as 'int8');
const f = await vectors('fp32');
const cos = f.map((a, i) => a.reduce((s, x, k) => s + x * q[i]![k]!, 0));
console.log(`${texts.length} texts: cosine mean ${(cos.reduce((s, c) => s + c, 0) / cos.length).toFixed(6)}, min ${Math.min(...cos).toFixed(6)}`);
