import type { ModelInfo } from '@svc/catalog';
import type { ShadowFocus, ShadowOffer } from '@svc/judging';
import { type ChoiceLearner, toleranceOfDial } from '@svc/router';

/** A model's cost as the learner compares it: its prices per million tokens, in and out (the router's ranking of cheaper models). */
const costOf = (model: ModelInfo): number => model.inputPricePerMTok + model.outputPricePerMTok;

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
    const { taskKind } = offer;
    if (taskKind === null || taskKind === 'unknown') return { open: [], judged: 0 };
    const incumbent = { id: offer.served.id, cost: costOf(offer.served) };
    const tolerance = toleranceOfDial(offer.request.routingHints?.preferenceDial);
    const orgId = offer.caller.org.id;
    const open = candidates.filter((model) => learner.unsure({ orgId, taskKind, incumbent, candidates: [{ id: model.id, cost: costOf(model) }], tolerance }));
    const judged = candidates.reduce((sum, model) => sum + learner.judgedCounts({ orgId, taskKind, candidate: model.id, incumbent: incumbent.id }).samples, 0);
    return { open, judged };
  };
}
