// Instructions per route() over 100 models, independent of the machine's load (issue #28's
// routing budget, docs/routing.md "Cost of a decision"). Run from a checkout, after a build:
//   valgrind --tool=callgrind --dump-before=uv_getrusage --callgrind-out-file=cg.<side> \
//     node --single-threaded route.mjs <checkout> [M] [W]
// (ROUTER_DIST=<folder under packages/router> reads another build of the router, for a before/after in one checkout),
// then `grep ^totals cg.<side>.*`: parts 2..17 are M decisions each, of the four kinds below (no
// embedding; with the embedding; the shipped model without its domain; strong/weak at 0.3) over
// the bench's four prompts (`router:bench`'s; the third is of a trusted family and unlike the
// training prompts, so it reads every prototype), kind by kind, prompt by prompt. `node
// --single-threaded` keeps V8's compiler and GC threads out of the count (runs then repeat to
// the instruction). process.cpuUsage() marks the phases.
const [root] = process.argv.slice(2, 3);
const M = Number(process.argv[3] ?? 400);
const W = Number(process.argv[4] ?? 2000);
const { createCatalog } = await import(`${root}/packages/catalog/dist/index.js`);
const { createRouter, shippedQualityModel, shippedQualityTrust } = await import(`${root}/packages/router/${process.env.ROUTER_DIST ?? 'dist'}/index.js`);
const builtIn = createCatalog().list({ kind: 'chat' });
const keep = Math.min(builtIn.length, 100);
const catalog = createCatalog(Array.from({ length: keep }, (_, i) => builtIn[Math.floor((i * builtIn.length) / keep)]));
const router = createRouter({ catalog, embedder: false, guard: {} });
const withoutDomain = createRouter({ catalog, embedder: false, guard: {}, quality: { ...shippedQualityModel(), domain: undefined }, qualityTrust: shippedQualityTrust });
const prompts = ['hi', 'Write a python function that sorts a list of tuples by the second item.', `Explain the difference between a stock and a bond. ${'Why? '.repeat(60)}`, 'Prove that the sum of two even integers is even, step by step.'];
const ask = (content) => ({ model: 'svc/auto', messages: [{ role: 'user', content }], stream: false, n: 1, includeUsage: false });
const embedding = Float32Array.from({ length: 384 }, (_, i) => Math.sin(i) / 10);
const ids = catalog.list({ kind: 'chat' }).map((m) => m.id);
const kinds = [
  [router, {}],
  [router, { embedding }],
  [withoutDomain, { embedding }],
  [router, { embedding, strongShare: 0.3, strongModel: ids[0], weakModel: ids[ids.length - 1] }],
];
let picked = 0;
for (const [on, context] of kinds) for (let i = 0; i < W; i++) picked += on.route(ask(prompts[i % prompts.length]), context).model.id.length;
process.cpuUsage(); // dump: setup + warm-up
for (const [on, context] of kinds) {
  for (const prompt of prompts) {
    for (let i = 0; i < M; i++) picked += on.route(ask(prompt), context).model.id.length;
    process.cpuUsage(); // dump: M decisions of this kind and prompt
  }
}
console.log(`models ${catalog.list({ kind: 'chat' }).length}, decisions ${M} x ${kinds.length} x ${prompts.length} (${picked})`);
