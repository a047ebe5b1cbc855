/**
 * The mock upstream's answers for the simulation through the running gateway: each model answers a
 * prompt with the data's outcome (`RIGHT`/`WRONG`, tagged with the prompt's index), and the judge
 * prefers the right answer, with a share of its verdicts flipped (the same pair always flips the
 * same way, so both orders agree as a real judge's error would).
 */
import { createHash } from 'node:crypto';
import type { ChatScript } from '@svc/mock-upstream';
import type { Item } from './data.js';

/** The upstream model names served, each answering with one column of the data. */
export type ModelColumns = Readonly<Record<string, string>>;

const textOf = (body: Record<string, unknown>): string[] => {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as { content?: unknown }[]) : [];
  return messages.map((m) => (typeof m.content === 'string' ? m.content : ''));
};

const isJudging = (body: Record<string, unknown>): boolean => JSON.stringify(body['response_format'] ?? null).includes('pairwise_verdict');

/** A number in [0, 1) from a text (stable across runs). */
const unitHash = (text: string): number => createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;

/** The judge's answer for a judging body: the right answer wins, ties stay ties, `flip` of the pairs decided the other way (a tie to a win). */
export function judgeFromLabels(body: Record<string, unknown>, flip: number): string {
  const text = textOf(body).join('\n');
  const a = text.indexOf('[Answer A]');
  const b = text.indexOf('[Answer B]');
  const end = text.indexOf('[End of answers]');
  const answerA = text.slice(a, b);
  const answerB = text.slice(b, end > b ? end : undefined);
  const [first, second] = [answerA, answerB].map((s) => s.replace(/\[Answer [AB]\]/, '').trim()).sort();
  const key = `${first}|${second}`;
  const rightA = answerA.includes('RIGHT');
  const rightB = answerB.includes('RIGHT');
  let winner = rightA === rightB ? 'tie' : rightA ? 'A' : 'B';
  if (unitHash(`flip:${key}`) < flip) {
    // A flipped tie becomes a win for one of the two answers, the same one in both orders.
    const pick = unitHash(`side:${key}`) < 0.5 ? first : second;
    winner = winner === 'tie' ? (answerA.includes(pick!) ? 'A' : 'B') : winner === 'A' ? 'B' : 'A';
  }
  return `{"winner":"${winner}"}`;
}

/** The mock upstream's script: judging bodies answered by `judgeFromLabels`, chat by the asked model's outcome on the prompt. */
export function outcomeScript(items: readonly Item[], columns: ModelColumns, flip: number): ChatScript {
  const byPrompt = new Map<string, number>();
  for (const [i, item] of items.entries()) byPrompt.set(item.prompt, i);
  return (body, model) => {
    if (isJudging(body)) return judgeFromLabels(body, flip);
    const column = columns[model];
    const texts = textOf(body);
    const index = byPrompt.get(texts[texts.length - 1] ?? '');
    if (column === undefined || index === undefined) return undefined;
    return `Answer ${index} by ${model}: ${items[index]!.correct[column] === true ? 'RIGHT' : 'WRONG'}.`;
  };
}
