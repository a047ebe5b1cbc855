// usage: node tooling/bench/scripts/shadow-offer-cpu.mjs <checkout root, built>
// CPU of ShadowJudging.offer for an organisation whose settings say off: main (09ebff3) against this branch.
const root = process.argv[2];
const { ShadowJudging, DailyShadowBudget } = await import(`${root}/packages/judging/dist/index.js`);
const newApi = typeof ShadowJudging.prototype.accepts === 'function';
const settings = newApi ? () => undefined : async () => undefined; // main's runtime wraps the cache in an async function
const shadow = new ShadowJudging({ models: { permitted: () => undefined, cheaperThan: () => [], call: async () => ({ text: '', costUsd: 0 }) }, settings, budget: new DailyShadowBudget({ consumeWindow: async () => ({}) }), sink: { record() {} }, onError() {} });
const caller = { keyId: 'k', keyPrefix: 'p', org: { id: 'org' }, scopes: new Set() };
const served = { id: 'openai/gpt-4o-mini' };
const request = { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false };
const N = 200_000;
let best = Infinity;
for (let round = 0; round < 5; round++) {
  const c = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    if (newApi && !shadow.accepts('org', 'full')) continue; // what offerForShadow does now, before it builds the offer
    shadow.offer({ caller, requestId: 'req', mode: 'full', request, served, answer: 'hello', completionTokens: 1, taskKind: null });
    if (i % 1000 === 999) await shadow.idle();
  }
  await shadow.idle();
  const d = process.cpuUsage(c);
  best = Math.min(best, (d.user + d.system) / N);
}
console.log(`${newApi ? 'branch el' : 'main 09ebff3'}: ${(best * 1000).toFixed(0)} ns CPU per offer, judging off (best of 5 rounds of ${N})`);
