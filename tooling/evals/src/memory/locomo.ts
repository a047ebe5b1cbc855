import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryStore, endUserSubject, extractFacts, refersToUser } from '@svc/memory';
import { createInProcessRecordStore } from '@svc/memory/test';
import { createMemoryVectorStore, type Embedder } from '@svc/semantic';

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface QaItem {
  question: string;
  evidence?: string[];
  category: number;
}

/** The dialogue turns of one LoCoMo conversation file, in session order. */
function turnsOf(conversation: Record<string, unknown>): Turn[] {
  const sessions = Object.keys(conversation)
    .filter((key) => /^session_\d+$/.test(key))
    .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
  return sessions.flatMap((key) => conversation[key] as Turn[]);
}

/**
 * LoCoMo (snap-research/locomo, `data/locomo10.zip`): each conversation ingested as one end
 * user (every turn said to the gateway), then each question (categories 1-4: single-hop,
 * multi-hop, temporal, open-domain; 5 is adversarial) asked as that user. Reports evidence
 * recall@5 (a fact extracted from an evidence turn among the five best), the same at the
 * calibrated floor, and the share of questions that got anything injected.
 */
export async function evaluateLocomo(embedder: Embedder, dir: string, floors: { self: number; other: number }) {
  const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  let questions = 0;
  let atFive = 0;
  let atFloor = 0;
  let injected = 0;
  let facts = 0;
  let turns = 0;
  for (const file of files) {
    const conversation = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    const qa = (conversation.qa ?? []) as QaItem[];
    const scope = { orgId: 'org-locomo', subject: endUserSubject('org-locomo', file) };
    const memory = createMemoryStore({ records: createInProcessRecordStore(), vectors: createMemoryVectorStore({ capacity: 100_000 }), embedder, maxPending: 100_000 });
    const turnsOfFact = new Map<string, Set<string>>();
    for (const turn of turnsOf(conversation)) {
      turns++;
      for (const fact of extractFacts(turn.text)) turnsOfFact.set(fact.text, (turnsOfFact.get(fact.text) ?? new Set()).add(turn.dia_id));
      memory.remember(scope, turn.text);
    }
    await memory.idle();
    facts += turnsOfFact.size;
    for (const item of qa) {
      if (item.category === 5 || !item.evidence?.length) continue;
      questions++;
      const found = await memory.recall(scope, item.question, { limit: 5, minSimilarity: -1 });
      const threshold = refersToUser(item.question) ? floors.self : floors.other;
      const evidence = new Set(item.evidence);
      const isEvidence = (text: string) => [...(turnsOfFact.get(text) ?? [])].some((id) => evidence.has(id));
      if (found.some((m) => isEvidence(m.text))) atFive++;
      if (found.some((m) => isEvidence(m.text) && m.score >= threshold)) atFloor++;
      if ((found[0]?.score ?? -1) >= threshold) injected++;
    }
  }
  const share = (n: number) => Math.round((n / Math.max(1, questions)) * 1000) / 1000;
  const report = { conversations: files.length, turns, facts, questions, recallAt5: share(atFive), recallAt5AtFloor: share(atFloor), injectedShare: share(injected) };
  console.log(`LoCoMo: ${report.questions} questions over ${report.conversations} conversations (${turns} turns -> ${facts} facts): evidence recall@5 ${report.recallAt5}, at the floor ${report.recallAt5AtFloor}, anything injected ${report.injectedShare}`);
  return report;
}
