import { endUserSubject, extractFacts, refersToUser, type RecalledMemory } from '@svc/memory';
import type { FactItem } from './dataset.js';
import type { AttributeQuestions } from './updates-data.js';
import { asserts, type UpdateRun } from './updates-eval.js';

/** One request's candidates as the re-ranker sees them: features, whether each answers it, whether it clears the floor alone. */
export interface RerankRequestRows {
  /** `related`: a dev question with a fact that answers it in force; `unrelated`: a dev unrelated prompt; `none`: a question whose value was retracted. */
  kind: 'related' | 'unrelated' | 'none';
  rows: { features: number[]; answer: boolean; floor: boolean }[];
}

const ORG = 'org-updates';

async function candidates(run: UpdateRun, user: number, prompt: string, floors: { self: number; other: number }, answers: (text: string) => boolean) {
  const scope = { orgId: ORG, subject: endUserSubject(ORG, `user-${user}`) };
  const found: RecalledMemory[] = await run.memory.recall(scope, prompt, { limit: 100, minSimilarity: -1, features: true });
  const floor = refersToUser(prompt) ? floors.self : floors.other;
  return found.filter((m) => m.features).map((m) => ({ features: m.features!.values, answer: answers(m.text), floor: m.score >= floor }));
}

/**
 * The dev requests of one replay: the tuning forms of its dev attributes (the current value
 * answers; none for a retraction), the questions of its users' calibration (even-template)
 * background facts, and the dev unrelated prompts asked by the users in turn.
 */
export async function rerankRequests(run: UpdateRun, inputs: { questions: ReadonlyMap<string, AttributeQuestions>; facts: readonly FactItem[]; unrelated: readonly string[] }): Promise<RerankRequestRows[]> {
  const floors = run.memory.floors;
  const out: RerankRequestRows[] = [];
  const byText = new Map(inputs.facts.map((f) => [f.fact, f]));
  for (const [u, user] of run.users.entries()) {
    for (const held of user.attributes) {
      if (held.attribute.split !== 'dev') continue;
      const value = held.fate === 'update' ? held.second : held.fate === 'keep' ? held.first : undefined;
      for (const question of inputs.questions.get(held.attribute.attribute)?.tune ?? []) {
        const rows = await candidates(run, u, question, floors, (text) => value !== undefined && asserts(text, value));
        out.push({ kind: value === undefined ? 'none' : 'related', rows });
      }
    }
    for (const item of user.background.map((text) => byText.get(text)).filter((f): f is FactItem => f !== undefined && f.template % 2 === 0)) {
      const expected = new Set(extractFacts(item.fact).map((f) => f.text));
      for (const question of item.questions) out.push({ kind: 'related', rows: await candidates(run, u, question, floors, (text) => expected.has(text)) });
    }
  }
  for (const [i, prompt] of inputs.unrelated.entries()) out.push({ kind: 'unrelated', rows: await candidates(run, i % run.users.length, prompt, floors, () => false) });
  return out;
}
