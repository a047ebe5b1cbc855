/** What the per-task learner did to a decision: the model it put first instead of the router's choice, and why. */
export interface LearnedChoice {
  /** The router's own first choice (the current choice the win rate is measured against). */
  incumbent: string;
  model: string;
  reason: 'learned' | 'explore';
  winRate: number;
  lower: number;
  samples: number;
}
