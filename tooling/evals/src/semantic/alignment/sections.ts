import type { Alignment } from './align.js';
import { alignmentDecision, chooseTau, type Decision, grid, type PairRow, type ScoreKey, scoreOf } from './decisions.js';
import { atCalibrationRecall, type Scorer } from './fixed-recall.js';
import type { Logistic } from './logistic.js';
import { auc, correlation } from './ranking.js';
import { predict, trainLogistic } from './logistic.js';
import { variants } from './pair-scores.js';
import { type Judged, judge, tableHead, tableLine, type Verdict } from './report-lines.js';

const kinds: (keyof Alignment)[] = ['precision', 'recall', 'f1', 'min', 'worst'];
const lrKinds: (keyof Alignment)[] = ['precision', 'recall', 'f1', 'min', 'worst'];
const keys: ScoreKey[] = variants.flatMap((variant) => kinds.map((kind) => ({ variant, kind })));
const name = (k: ScoreKey) => `${k.variant} ${k.kind === 'min' ? 'min(P, R)' : k.kind === 'worst' ? 'worst token' : k.kind}`;
const taus = grid(0.2, 0.995, 0.0025);
const TARGET = 0.92;

/** The naive baselines and the shipped decision. */
function baselines(sets: Judged, naive: Record<0.85 | 0.95, PairRow[]>): string[] {
  return [
    tableLine('shipped: cosine >= 0.85, guard, margin 0.02 (nearest decides)', judge(sets, (r) => r.gate)),
    tableLine('shipped + cosine >= 0.95', judge(sets, (r) => r.gate && r.cosine >= 0.95)),
    tableLine('naive: cosine >= 0.85 alone', judge(sets, (r) => r.cosine >= 0.85, naive[0.85])),
    tableLine('naive: cosine >= 0.95 alone', judge(sets, (r) => r.cosine >= 0.95, naive[0.95])),
  ];
}

/** For one family of decisions, each score's threshold chosen on the calibration half (most recall at precision >= 0.92). */
function chosenRows(sets: Judged, band: number): { label: string; verdict: Verdict }[] {
  const out: { label: string; verdict: Verdict }[] = [];
  for (const key of keys) {
    const chosen = chooseTau(sets.calibration, taus, (tau) => alignmentDecision(key, tau, band), TARGET);
    if (!chosen) continue;
    const prefix = band < 2 ? `band: cosine >= ${band} served, else ` : 'shipped + ';
    out.push({ label: `${prefix}${name(key)} >= ${chosen.tau}`, verdict: judge(sets, alignmentDecision(key, chosen.tau, band)) });
  }
  return out.sort((a, b) => b.verdict.calibration.recall - a.verdict.calibration.recall);
}

/** The logistic regression on (cosine, P, R, F1, min, worst) of one variant, trained on the calibration half's gated pairs. */
function logisticScorer(sets: Judged, variant: (typeof variants)[number]): { model: Logistic; score: Scorer } {
  const features = (r: PairRow) => [r.cosine, ...lrKinds.map((k) => r.scores![variant][k])];
  const train = sets.calibration.filter((r) => r.gate);
  const model = trainLogistic(train.map(features), train.map((r) => r.positive));
  return { model, score: (r) => (r.gate ? predict(model, features(r)) : Number.NEGATIVE_INFINITY) };
}

function logisticRows(sets: Judged): string[] {
  const lines: string[] = [];
  for (const variant of variants) {
    const { score } = logisticScorer(sets, variant);
    const make = (p: number): Decision => (r) => r.gate && score(r) >= p;
    const chosen = chooseTau(sets.calibration, grid(0.3, 0.99, 0.005), make, TARGET);
    for (const p of [...new Set([chosen?.tau, 0.5, 0.7].filter((x): x is number => x !== undefined))]) {
      lines.push(tableLine(`logistic regression (cosine, ${variant} P, R, F1, min, worst), p >= ${p}${p === chosen?.tau ? ' (chosen)' : ''}`, judge(sets, make(p))));
    }
  }
  return lines;
}

/** Every (score, band, tau) whose GPTCache counts meet the goal: the highest calibration precision at recall >= 20%. */
function goalConstrained(sets: Judged): string[] {
  const found: { label: string; verdict: Verdict }[] = [];
  for (const band of [2, 0.9, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97]) {
    for (const key of keys) {
      for (const tau of taus) {
        const verdict = judge(sets, alignmentDecision(key, tau, band));
        if (verdict.gpt.right < 700 || verdict.gpt.wrong > 10 || verdict.calibration.recall < 0.2) continue;
        found.push({ label: `${band < 2 ? `band ${band}, ` : ''}${name(key)} >= ${tau}`, verdict });
      }
    }
  }
  found.sort((a, b) => b.verdict.calibration.precision - a.verdict.calibration.precision);
  return found.slice(0, 8).map((f) => tableLine(f.label, f.verdict));
}

/** Every family at the threshold where it reaches 10 / 20 / 30% recall on the calibration half: which ranks QQP's duplicates best. */
function fixedRecall(sets: Judged): string[] {
  const families: { label: string; score: Scorer }[] = [{ label: 'cosine (shipped gate)', score: (r) => r.cosine }];
  for (const key of keys) families.push({ label: name(key), score: (r) => scoreOf(r, key) });
  for (const band of [0.95, 0.96, 0.97]) {
    for (const key of keys.filter((k) => k.variant === 'plain')) families.push({ label: `band ${band}, else ${name(key)}`, score: (r) => (r.cosine >= band ? 2 : scoreOf(r, key)) });
  }
  for (const variant of variants) families.push({ label: `logistic regression (cosine, ${variant} P, R, F1, min, worst)`, score: logisticScorer(sets, variant).score });
  const lines = [
    '| family (shipped gate, then score >= tau) | calibration recall 10%: calibration / held-out precision (held-out recall), GPTCache right / wrong | 20% | 30% | 40% | 50% |',
    '|---|---|---|---|---|---|',
  ];
  const rows = families.map(({ label, score }) => {
    const cells = [0.1, 0.2, 0.3, 0.4, 0.5].map((r) => atCalibrationRecall(sets, score, r));
    const cell = (c: (typeof cells)[number]) => (c ? `${c.verdict.calibration.precision.toFixed(3)} / ${c.verdict.heldOut.precision.toFixed(3)} (${(c.verdict.heldOut.recall * 100).toFixed(1)}%), ${c.verdict.gpt.right} / ${c.verdict.gpt.wrong}` : '-');
    return { at20: cells[1]?.verdict.calibration.precision ?? 0, line: `| ${label} | ${cells.map(cell).join(' | ')} |` };
  });
  return [...lines, ...rows.sort((a, b) => b.at20 - a.at20).map((r) => r.line)];
}

/** How well each score ranks the pairs the shipped gate serves (ROC AUC on either half) and how much it says beyond the cosine. */
function rankingLines(sets: Judged): string[] {
  const calibration = sets.calibration.filter((r) => r.gate);
  const held = sets.heldOut.filter((r) => r.gate);
  const lines = ['| score, over the pairs the shipped gate serves | AUC calibration | AUC held-out | correlation with the cosine (calibration) |', '|---|---|---|---|'];
  const cosine: Scorer = (r) => r.cosine;
  const families: { label: string; score: Scorer }[] = [{ label: 'cosine', score: cosine }];
  for (const key of keys) families.push({ label: name(key), score: (r) => scoreOf(r, key) });
  for (const variant of variants) families.push({ label: `logistic regression (cosine, ${variant} P, R, F1, min, worst)`, score: logisticScorer(sets, variant).score });
  for (const f of families) lines.push(`| ${f.label} | ${auc(calibration, f.score).toFixed(3)} | ${auc(held, f.score).toFixed(3)} | ${correlation(calibration, cosine, f.score).toFixed(2)} |`);
  return lines;
}

/** The report: baselines, alignment thresholds, bands, the logistic regression, the GPTCache-constrained best. */
export function alignmentSections(sets: Judged, naive: Record<0.85 | 0.95, PairRow[]>): string[] {
  const lines = ['### Baselines', '', ...tableHead, ...baselines(sets, naive), ''];
  lines.push('### Shipped + "served only if the alignment score >= tau" (tau: most calibration recall at precision >= 0.92)', '', ...tableHead);
  lines.push(...chosenRows(sets, 2).map((r) => tableLine(r.label, r.verdict)), '');
  lines.push('### Bands: cosine >= t served outright, 0.85-t the alignment decides (best 3 scores per t reaching 0.92 on calibration)', '', ...tableHead);
  for (const band of [0.9, 0.92, 0.93, 0.94, 0.95, 0.96, 0.97]) lines.push(...chosenRows(sets, band).slice(0, 3).map((r) => tableLine(r.label, r.verdict)));
  lines.push('', '### Ranking within the shipped gate', '', ...rankingLines(sets));
  lines.push('', '### Every family at a fixed calibration recall (sorted by calibration precision at 20%)', '', ...fixedRecall(sets));
  lines.push('', '### Logistic regression', '', ...tableHead, ...logisticRows(sets), '');
  lines.push('### Highest calibration precision at recall >= 20% among decisions with GPTCache >= 700 / <= 10 (any score, band, tau)', '', ...tableHead, ...goalConstrained(sets), '');
  const anyMeets = lines.some((l) => l.endsWith('| yes |'));
  lines.push(`Any decision above meets all three goals: ${anyMeets ? 'yes' : 'no'}.`);
  return lines;
}

