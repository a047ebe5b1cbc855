/** The most judge error a setting or an estimate may say: past 0.5 a judge is worse than a coin. */
export const MAX_JUDGE_ERROR_RATE = 0.45;

/**
 * The judge's error share assumed when the organisation set none and feedback cannot tell yet:
 * the share the simulation harness flips (docs/routing.md, "Shadow judging": every run assuming
 * it kept >= 98.9% of the strong model's quality). Too high a share only makes the learner slower
 * to move to a cheaper model; too low a share lets a noisy judge move it to a worse one.
 */
export const DEFAULT_JUDGE_ERROR_RATE = 0.15;

/** Decisive verdicts with feedback on the same request needed before their disagreement is the estimate. */
export const MIN_AGREEMENT_PAIRS = 30;

/**
 * Judged pairs that also got feedback, read against it. A decisive verdict says something of the
 * served answer (`incumbent`: it was the better one, `candidate`: it was beaten) that feedback on
 * that answer can contradict (thumbs down on an answer the judge preferred, thumbs up on one it
 * ruled beaten). Ties and neutral scores (0.5) say nothing and are not counted.
 */
export interface JudgeAgreement {
  /** Decisive verdicts on requests with a non-neutral feedback score. */
  decisive: number;
  /** Of them, those the feedback contradicts. */
  disagree: number;
}

/** The judge's error share the learner assumes for an organisation, and where it comes from. */
export interface JudgeErrorRate {
  rate: number;
  /** `setting` (`judge_error_rate`), `feedback` (the agreement's disagreement share) or `default`. */
  source: 'setting' | 'feedback' | 'default';
  /** Decisive verdicts with feedback behind a `feedback` estimate (0 otherwise). */
  pairs: number;
}

/**
 * The organisation's setting when it has one; else the share of decisive verdicts feedback
 * contradicts, once there are `MIN_AGREEMENT_PAIRS` of them (an upper estimate: a judge that
 * turns ties into wins, and users' own noise, count as judge errors; erring high only slows the
 * learner); else `DEFAULT_JUDGE_ERROR_RATE`. Clamped to 0..`MAX_JUDGE_ERROR_RATE`.
 */
export function judgeErrorRate(setting: number | undefined, agreement: JudgeAgreement | undefined): JudgeErrorRate {
  const clamp = (rate: number) => Math.min(MAX_JUDGE_ERROR_RATE, Math.max(0, rate));
  if (setting !== undefined) return { rate: clamp(setting), source: 'setting', pairs: 0 };
  if (agreement && agreement.decisive >= MIN_AGREEMENT_PAIRS) return { rate: clamp(agreement.disagree / agreement.decisive), source: 'feedback', pairs: agreement.decisive };
  return { rate: DEFAULT_JUDGE_ERROR_RATE, source: 'default', pairs: 0 };
}
