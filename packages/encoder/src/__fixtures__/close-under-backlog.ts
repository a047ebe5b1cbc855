// Child process of close-under-backlog.test.ts: one batch of `size` long texts keeps the inference
// thread busy, then on SIGTERM it does what the gateway does (`runtime.close()` closes the encoder,
// then `process.exit(0)`) and prints how long the close took and how many embeddings it refused.
import { createSentenceEncoder } from '../sentence-encoder.js';

const size = Number(process.argv[2] ?? 256);
const encoder = createSentenceEncoder({ cacheSize: 0, maxBatch: size, niceness: 0 });
await encoder.ready;
const texts = Array.from({ length: size }, (_, i) => `Request ${i}: explain why ${i} plus ${i + 1} is odd. ${'Show every step of it. '.repeat(40)}`);
const answers = texts.map((text) => encoder.embed([text]).then(() => 'embedded', (error: Error) => error.message));
process.once('SIGTERM', () => {
  const closing = performance.now();
  void encoder.close().then(async () => {
    const closeMs = Math.round(performance.now() - closing);
    const outcomes = await Promise.all(answers);
    console.log(JSON.stringify({ closeMs, refused: outcomes.filter((o) => o === 'sentence encoder: closed').length }));
    process.exit(0);
  });
});
console.log('queued');
