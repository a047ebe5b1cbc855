import type { ChoiceLearner, ChoiceRequest } from './learner.js';

/**
 * Which task kind a judging sampler spends its next judged pair on (docs/routing.md, "A task kind
 * moved up", judging order). A judged pair between two models counts for both directions of their
 * move on its kind, and a kind's move needs about as many pairs whatever its traffic; so, as
 * Smith's rule orders jobs by weight over length, the pairs go first to the kind whose open move
 * up may gain the most: its requests on a cheaper incumbent times the pricier model's lead read
 * optimistically (its upper bound - 0.5: a kind's priority falls as its interval narrows, not as
 * its reading dips, so a kind read at or under 0.5 on a few dozen noisy pairs is judged again; a
 * kind with no pair, 0.5). Before those, a kind whose cheap incumbent was never judged against a
 * pricier candidate, the kind with the most such requests first: its first pair is what starts a
 * cautious start (`cautiousStart`), one pair a kind. A kind with only a move down open comes after
 * every open move up (it saves cost, not quality), the kind with the most requests first; a
 * settled kind last (docs/routing.md, "Under-evidenced kinds judged again").
 * Nothing here changes a bound or a bar: it only orders where the same judged share goes.
 */
export interface JudgingOrder {
  /** Counts a request on its organisation, task kind and incumbent (call once per request). */
  seen(request: ChoiceRequest): void;
  /** True when no other task kind of the organisation ranks before this request's: judge here first. */
  first(request: ChoiceRequest): boolean;
}

/** A kind's rank: tier 3 a pricier candidate never judged against a cheap incumbent (by those requests), 2 an open move up (by its gain read optimistically), 1 only a move down open (by traffic), 0 settled. */
interface Rank {
  tier: number;
  value: number;
}

interface Seen {
  request: ChoiceRequest;
  count: number;
}

type Learner = Pick<ChoiceLearner, 'unsure' | 'winRate'>;

const before = (a: Rank, b: Rank): boolean => a.tier > b.tier || (a.tier === b.tier && a.value > b.value);

/** The gain the pricier candidates still open against this incumbent may bring: the best one's upper bound over 0.5 times the incumbent's requests. */
function upGain(learner: Learner, { request, count }: Seen): number {
  const { orgId, taskKind, incumbent } = request;
  let best = 0;
  for (const candidate of request.candidates) {
    if (candidate.cost <= incumbent.cost || !learner.unsure({ ...request, candidates: [candidate] })) continue;
    const lead = learner.winRate({ orgId, taskKind, candidate: candidate.id, incumbent: incumbent.id }).upper - 0.5;
    best = Math.max(best, lead * count);
  }
  return best;
}

/**
 * True when a pricier candidate of this incumbent is still open and has no judged pair against it
 * on the kind yet. Only an open one: a candidate settled without pairs (by feedback alone) is never
 * offered for judging, and would hold its kind first for good.
 */
function unjudgedUp(learner: Learner, { request }: Seen): boolean {
  const { orgId, taskKind, incumbent } = request;
  return request.candidates.some(
    (c) => c.cost > incumbent.cost && learner.winRate({ orgId, taskKind, candidate: c.id, incumbent: incumbent.id }).judged === 0 && learner.unsure({ ...request, candidates: [c] }),
  );
}

function rankOf(learner: Learner, byIncumbent: ReadonlyMap<string, Seen>): Rank {
  let gain = 0;
  let traffic = 0;
  let unjudged = 0;
  let open = false;
  for (const seen of byIncumbent.values()) {
    gain += upGain(learner, seen);
    traffic += seen.count;
    if (unjudgedUp(learner, seen)) unjudged += seen.count;
    open ||= learner.unsure(seen.request);
  }
  if (unjudged > 0) return { tier: 3, value: unjudged };
  if (gain > 0) return { tier: 2, value: gain };
  return open ? { tier: 1, value: traffic } : { tier: 0, value: traffic };
}

/** A judging order over the learner's open moves, from the requests it is shown (in memory, per organisation). */
export function createJudgingOrder(learner: Learner): JudgingOrder {
  const kinds = new Map<string, Map<string, Map<string, Seen>>>();
  return {
    seen(request) {
      const org = kinds.get(request.orgId) ?? new Map<string, Map<string, Seen>>();
      kinds.set(request.orgId, org);
      const kind = org.get(request.taskKind) ?? new Map<string, Seen>();
      org.set(request.taskKind, kind);
      kind.set(request.incumbent.id, { request, count: (kind.get(request.incumbent.id)?.count ?? 0) + 1 });
    },
    first(request) {
      const org = kinds.get(request.orgId);
      const own = org?.get(request.taskKind);
      if (!org || !own) return true;
      const mine = rankOf(learner, own);
      for (const [taskKind, other] of org) if (taskKind !== request.taskKind && before(rankOf(learner, other), mine)) return false;
      return true;
    },
  };
}
