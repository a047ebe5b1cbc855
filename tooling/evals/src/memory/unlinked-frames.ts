/** The frame rule judged offline (`memory:unlinked --grid`): rank a fact's candidates by frame cosine, count what a floor and margin would link. */

export interface FrameCandidate {
  text: string;
  /** Statement cosine plus frame cosine (rule 6's score). */
  subject: number;
  /** Frame cosine alone: the two statements with their values removed. */
  frame: number;
  /** Frame cosine plus the two values' cosine (rule 5's score: the same frame and the same kind of value). */
  typed: number;
  /** The relation pair reader's probability that the fact replaces this one (`--reader`), over the nearest candidates only; else 0. */
  reader: number;
}

export interface FrameProbe {
  text: string;
  /** Whether the statement announces a change (a change word). */
  change: boolean;
  /** The old facts it should have replaced, for an unlinked correction. */
  olds: readonly string[] | undefined;
  /** The candidates, by rule 6's score. */
  ranked: readonly FrameCandidate[];
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** The facts `keep` admits, by rule 6's score, each with its frame cosine to fact `at`. */
export function rankByFrame(texts: readonly string[], vectors: { statements: readonly Float32Array[]; frames: readonly Float32Array[]; values: readonly Float32Array[] }, at: number, keep: (text: string) => boolean): FrameCandidate[] {
  const { statements, frames, values } = vectors;
  return texts
    .map((text, i) => ({ text, i }))
    .filter(({ text }) => keep(text))
    .map(({ text, i }) => {
      const frame = dot(frames[at]!, frames[i]!);
      return { text, frame, subject: dot(statements[at]!, statements[i]!) + frame, typed: frame + dot(values[at]!, values[i]!), reader: 0 };
    })
    .sort((a, b) => b.subject - a.subject);
}

type Score = 'frame' | 'subject' | 'typed' | 'reader';

/** The candidate a rule on `score` links: first by it, at the floor and the margin ahead of the next. */
function linked(probe: FrameProbe, score: Score, floor: number, margin: number): string | undefined {
  const [first, second] = [...probe.ranked].sort((a, b) => b[score] - a[score]);
  if (!first || first[score] < floor) return undefined;
  return second === undefined || first[score] - second[score] >= margin ? first.text : undefined;
}

/** Per score, floor, margin and scope (changes only or any statement): right links, wrong links of corrections, other facts superseded. */
export function frameGrid(probes: readonly FrameProbe[], withReader = false): object[] {
  const out: object[] = [];
  const grid: [Score, number[], number[]][] = withReader
    ? [['reader', [0.5, 0.6, 0.7, 0.8, 0.9, 0.95], [0.1, 0.2, 0.3, 0.4, 0.5]]]
    : [
        ['frame', [0.5, 0.6, 0.7, 0.8], [0.05, 0.08, 0.12, 0.16, 0.2]],
        ['subject', [0.5, 0.7, 0.9, 1.0, 1.1, 1.2], [0.05, 0.08, 0.12, 0.16, 0.2]],
        ['typed', [0.8, 0.9, 1.0, 1.1, 1.2], [0.05, 0.08, 0.12, 0.16, 0.2]],
      ];
  for (const [score, floors, margins] of grid)
    for (const floor of floors)
      for (const margin of margins)
        for (const changesOnly of [true, false])
          for (const afterRule6 of withReader ? [false, true] : [false]) {
          let right = 0;
          let wrong = 0;
          let superseded = 0;
          for (const probe of probes) {
            if (changesOnly && !probe.change) continue;
            // Only where rule 6's shipped setting (0.5, 0.12 ahead, changes) links nothing: the reader as a last resort.
            if (afterRule6 && probe.change && linked(probe, 'subject', 0.5, 0.12) !== undefined) continue;
            const hit = linked(probe, score, floor, margin);
            if (hit === undefined) continue;
            if (probe.olds === undefined) superseded++;
            else if (probe.olds.includes(hit)) right++;
            else wrong++;
          }
          out.push({ score, floor, margin, changesOnly, afterRule6, right, wrong, superseded });
        }
  return out;
}

/** What the reader links at a floor and margin where rule 6's shipped setting links nothing, one line per link: right, wrong or superseded. */
export function readerLinks(probes: readonly FrameProbe[], floor: number, margin: number): string[] {
  return probes.flatMap((probe) => {
    if (probe.change && linked(probe, 'subject', 0.5, 0.12) !== undefined) return [];
    const hit = linked(probe, 'reader', floor, margin);
    if (hit === undefined) return [];
    const verdict = probe.olds === undefined ? 'superseded' : probe.olds.includes(hit) ? 'right' : 'wrong';
    return [`${verdict}: "${probe.text}" <- "${hit}"`];
  });
}
