/**
 * What the per-task learner did to a decision: the model it put first instead of the router's
 * choice, and why; or, with `gate.status` `refused`, the change it proposed and the regression
 * gate refused (the router's choice then stands).
 */
export interface LearnedChoice {
  /** The router's own first choice (the current choice the win rate is measured against). */
  incumbent: string;
  model: string;
  reason: 'learned' | 'explore' | 'start';
  winRate: number;
  lower: number;
  samples: number;
  /** The regression gate's ruling on a learned change (explorations are trials, not route changes, and are not gated). */
  gate?: LearnedGateRuling;
}

/** The gate's ruling on a learned route change, on the judged pairs of the new model against the old one. */
export interface LearnedGateRuling {
  status: 'promoted' | 'refused';
  reason: 'judged_not_worse' | 'judged_worse' | 'insufficient_judged_pairs';
  /** Judged win rate of the new model against the old one (ties half); null with no pair. */
  judgedWinRate: number | null;
  judgedSamples: number;
  /** The least win rate the gate accepts: 0.5 - its tolerance. */
  limit: number;
}
