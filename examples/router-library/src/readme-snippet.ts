import { readFileSync } from 'node:fs';

/** The TypeScript block under the README's "Use it from another TypeScript project" heading. */
export function readmeSnippet(readmePath: string): string {
  const readme = readFileSync(readmePath, 'utf8');
  const section = readme.indexOf('## Use it from another TypeScript project');
  if (section < 0) throw new Error(`${readmePath}: no "Use it from another TypeScript project" section`);
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
