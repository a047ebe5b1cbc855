import { readFileSync } from 'node:fs';

/** The first TypeScript block under the README's `heading` (default "Use it from another TypeScript project"). */
export function readmeSnippet(readmePath: string, heading = 'Use it from another TypeScript project'): string {
  const readme = readFileSync(readmePath, 'utf8');
  const section = readme.indexOf(`## ${heading}`);
  if (section < 0) throw new Error(`${readmePath}: no "${heading}" section`);
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(section));
  if (!block) throw new Error(`${readmePath}: no \`\`\`ts block in that section`);
  return block[1]!;
}

/**
 * What the test appends to the README's lines: the values they computed, printed as one JSON
 * line, and a line that only compiles if `winRate` is typed (an `any` would make the
 * `@ts-expect-error` unused, which is an error).
 */
export const snippetPostlude = `
// @ts-expect-error winRate takes a request or a string, not a number: proves the emitted types are not any
void router.winRate(42, 'acme/big', 'openai/gpt-4o-mini');
const strongWin = await router.winRate('Prove that sqrt(2) is irrational.', 'acme/big', 'openai/gpt-4o-mini');
const ranked = await router.rank('Summarise this memo in one line.', { candidates: ['acme/big', 'openai/gpt-4o-mini'] });
console.log(JSON.stringify({
  dimensions: embedding?.length ?? 0,
  strongWin,
  ranked: ranked.map((m) => m.id),
  model: decision.model.id,
  cascade: decision.cascade ?? null,
  threshold,
}));
process.exit(0);
`;

/** A consumer's tsconfig: Node's own resolution (exports map: `types`, `import`), no workspace condition. */
export const consumerTsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
  },
  files: ['snippet.ts'],
};

/** What the test appends to the learning section's lines: the choices before and after, and a line that only compiles if verdicts are typed. */
export const learningPostlude = `
// Compiled, never called: the verdict is typed ('candidate' | 'incumbent' | 'tie'), not any.
// @ts-expect-error 'better' is not a verdict
void (() => router.recordJudgedPair({ orgId: 'org-1', taskKind: 'code', incumbent: 'a', candidate: 'b', verdict: 'better' }));
console.log(JSON.stringify({ before: before.model.id, after: after.model.id, learned: after.learned ?? null, estimate: estimate ?? null, strict: router.route(ask, { orgId: 'org-1', tolerance: 0 }).model.id }));
`;
