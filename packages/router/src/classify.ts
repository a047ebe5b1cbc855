import type { TaskComplexity } from '@svc/core';
import type { RequestFeatures } from './features.js';
import type { TaskFamily } from './types.js';

/** The classifier's verdict on one request. */
export interface Classification {
  taskFamily: TaskFamily;
  complexity: TaskComplexity;
  /** The continuous complexity score the class was cut from (0 trivial .. ~3 expert). */
  score: number;
}

/** Score cut points: below the first is trivial, then standard, complex, expert. */
const cuts = [0.4, 1.25, 2.05] as const;

function family(f: RequestFeatures): TaskFamily {
  const scores: [TaskFamily, number][] = [
    ['code', f.codeHits * 0.9 + f.code * 2],
    ['math', f.mathHits * 0.8 + f.math * 2.5],
    ['translation', f.translationHits * 3],
    ['writing', f.writingHits * 1.2 + f.writingVerbs * 0.6],
    ['extraction', f.extractionHits * 1.6 + (f.json ? 1 : 0) + f.markup],
    ['analysis', f.analysisHits * 0.7 + f.reasoningWords * 2.5 + (f.choices ? 1 : 0) + (f.question ? 0.8 : 0)],
    ['chat', f.chatHits * 2 + (f.words <= 6 ? 0.8 : 0)],
  ];
  let best: TaskFamily = 'chat';
  let bestScore = 0.75;
  for (const [name, score] of scores) {
    if (score > bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

const familyBias: Record<TaskFamily, number> = {
  code: 0.15,
  math: 0.25,
  analysis: 0.05,
  writing: 0.15,
  extraction: 0,
  translation: 0,
  chat: -0.1,
};

/**
 * Heuristic complexity and task family from the request features: a weighted sum of length,
 * reasoning and constraint vocabulary, code/math density, tool use, and conversation depth,
 * cut into four classes. `reasoning_effort` is applied by the router as a class shift, not here. No allocation beyond the result.
 */
export function classify(f: RequestFeatures): Classification {
  const taskFamily = family(f);
  const length = Math.min(1.1, Math.max(0, (Math.log10(Math.max(f.lastUserChars, 1)) - 1.45) * 0.8));
  const score =
    length +
    f.reasoningWords * 1.1 +
    f.constraintWords * 0.6 +
    f.code * 0.4 +
    f.math * 0.5 +
    (f.tools ? 0.3 : 0) +
    (f.json ? 0.15 : 0) +
    Math.min(f.turns, 12) * 0.04 +
    f.longWords * 0.3 +
    familyBias[taskFamily];
  const complexity: TaskComplexity = score < cuts[0] ? 'trivial' : score < cuts[1] ? 'standard' : score < cuts[2] ? 'complex' : 'expert';
  return { taskFamily, complexity, score: Math.max(0, score) };
}
