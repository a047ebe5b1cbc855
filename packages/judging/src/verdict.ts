/** Which answer the judge preferred, in the order it was shown them. */
export type JudgeChoice = 'A' | 'B' | 'tie';

/** A judged pair's outcome for the candidate model against the incumbent (the served model). */
export type Verdict = 'candidate' | 'incumbent' | 'tie';

/** The JSON schema name of the judge's answer; `{ "winner": "A" | "B" | "tie" }`. */
export const VERDICT_SCHEMA_NAME = 'pairwise_verdict';

const CHOICES: readonly JudgeChoice[] = ['A', 'B', 'tie'];

/**
 * The judge's answer read as a choice: the `winner` of its JSON answer, else a bare `A`, `B` or
 * `tie` (any case, surrounding quotes, brackets or a full stop ignored). Undefined when it said
 * anything else: such a verdict counts as a tie of that order.
 */
export function parseJudgeAnswer(text: string): JudgeChoice | undefined {
  const trimmed = text.trim();
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (typeof parsed === 'object' && parsed !== null && 'winner' in parsed) return choiceOf(String(parsed.winner));
  } catch {
    // Not JSON: read it as a bare word.
  }
  return choiceOf(trimmed.replace(/^[\s"'[(]+|[\s"'\]).]+$/g, ''));
}

function choiceOf(word: string): JudgeChoice | undefined {
  const lowered = word.toLowerCase();
  return CHOICES.find((choice) => choice.toLowerCase() === lowered);
}

/**
 * The verdict of the two orders: first the candidate's answer as A, then as B. Position bias is
 * handled by requiring both orders to agree; when they disagree (each order preferred whatever
 * came first, or second), or either is a tie or unreadable, the pair is a tie.
 */
export function combineOrders(candidateFirst: JudgeChoice | undefined, candidateSecond: JudgeChoice | undefined): Verdict {
  const first = candidateFirst === 'A' ? 'candidate' : candidateFirst === 'B' ? 'incumbent' : 'tie';
  const second = candidateSecond === 'B' ? 'candidate' : candidateSecond === 'A' ? 'incumbent' : 'tie';
  return first === second ? first : 'tie';
}
