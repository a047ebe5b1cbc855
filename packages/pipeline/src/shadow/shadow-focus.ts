import type { ModelInfo } from '@svc/catalog';
import type { ShadowFocus, ShadowOffer, ShadowOrder } from '@svc/judging';
import { type ChoiceLearner, type ChoiceRequest, createJudgingOrder, toleranceOfDial } from '@svc/router';

/** A model's cost as the learner compares it: its prices per million tokens, in and out (the router's ranking of cheaper models). */
const costOf = (model: ModelInfo): number => model.inputPricePerMTok + model.outputPricePerMTok;

/** The learner's question for an offer's task kind: the served model against the candidates, at the request's tolerance; undefined for an unclassified request. */
function choiceOf(offer: ShadowOffer, candidates: readonly ModelInfo[]): ChoiceRequest | undefined {
  const { taskKind } = offer;
  if (taskKind === null || taskKind === 'unknown') return undefined;
  const incumbent = { id: offer.served.id, cost: costOf(offer.served) };
  const tolerance = toleranceOfDial(offer.request.routingHints?.preferenceDial);
  return { orgId: offer.caller.org.id, taskKind, incumbent, candidates: candidates.map((model) => ({ id: model.id, cost: costOf(model) })), tolerance };
}

/**
 * Shadow judging's order (`ShadowJudgingSettings.order`): the router's judging order
 * (`createJudgingOrder`, docs/routing.md "Up-moves sooner") over the offers' task kinds, in memory
 * per instance and organisation. An unclassified request is not counted and never ranks first.
 */
export function learnerOrder(learner: Pick<ChoiceLearner, 'unsure' | 'winRate'>): ShadowOrder {
  const order = createJudgingOrder(learner);
  return {
    seen(offer, candidates) {
      const choice = choiceOf(offer, candidates);
      if (choice) order.seen(choice);
    },
    first(offer, candidates) {
      const choice = choiceOf(offer, candidates);
      return choice !== undefined && order.first(choice);
    },
  };
}

/**
 * Shadow judging's focus (`ShadowJudgingSettings.focus`) from the router's per-task learner: of a
 * sampled request's candidates, those the learner is still unsure about against the served model
 * on the request's task kind, at the request's tolerance (`ChoiceLearner.unsure`), and the pairs it
 * holds between the served model and the candidates on that kind (the settled kind's cap reads
 * them). A request the router did not classify teaches the learner nothing, so its choice counts
 * as settled. Runs after the answer went out (shadow judging's later macrotask), never on the
 * request path.
 */
export function learnerFocus(learner: Pick<ChoiceLearner, 'unsure' | 'judgedCounts'>): (offer: ShadowOffer, candidates: readonly ModelInfo[]) => ShadowFocus {
  return (offer, candidates) => {
    const choice = choiceOf(offer, candidates);
    if (!choice) return { open: [], judged: 0 };
    const { orgId, taskKind, incumbent } = choice;
    const open = candidates.filter((_, i) => learner.unsure({ ...choice, candidates: [choice.candidates[i]!] }));
    const judged = candidates.reduce((sum, model) => sum + learner.judgedCounts({ orgId, taskKind, candidate: model.id, incumbent: incumbent.id }).samples, 0);
    return { open, judged };
  };
}
