import type { PolicySnapshot, RoutingPolicy } from './policy.js';
import { mergePolicySnapshots } from './policy-merge.js';
import { createChoiceSync } from './choice/choice-sync.js';
import type { ChoiceLearner } from './choice/learner.js';
import type { ChoiceSnapshot } from './choice/snapshot.js';
import type { RouterState } from './state.js';
import { type TaskFamily, taskFamilies } from './types.js';

interface SavedRouter {
  policy: PolicySnapshot;
  completionTokens: Record<string, number>;
  /** The per-task learner's counts (absent in snapshots of builds before it). */
  choice?: ChoiceSnapshot;
}

/** `shared` plus what `mine` learned since `base`, or undefined when they cannot be merged (another build's or a malformed snapshot). */
function tryMerge(shared: PolicySnapshot | undefined, base: PolicySnapshot, mine: PolicySnapshot): PolicySnapshot | undefined {
  if (!shared) return undefined;
  try {
    return mergePolicySnapshots(shared, base, mine);
  } catch {
    return undefined;
  }
}

export interface PersistenceSettings {
  policy: RoutingPolicy;
  /** The per-task learner; its counts merge exactly (shared + what this instance added since it synchronised). */
  learner?: ChoiceLearner | undefined;
  state: RouterState;
  /** Completion-token estimates per task family, saved and restored with the policy. */
  tokensByFamily: Map<TaskFamily, number>;
  /** Outcomes the policy has learned so far (to tell whether it changed while a save or restore waited). */
  updates: () => number;
}

/** The router's `save` and `restore` (see `Router`): its learning merged with what other instances saved. */
export function createPersistence({ policy, learner, state, tokensByFamily, updates }: PersistenceSettings): { save(): Promise<void>; restore(): Promise<void> } {
  const choice = createChoiceSync(learner);
  // The shared learning this instance last merged with (restore or save): what `save` adds to is
  // everything learned since. A fresh policy starts from the untrained state every instance shares.
  let synced: PolicySnapshot = policy.serialize();
  let updatesAtSync = 0;
  return {
    async save() {
      const store = state.weights;
      if (!store) return;
      const completionTokens = Object.fromEntries(tokensByFamily);
      const mine = policy.serialize();
      const updatesAtStart = updates();
      if (!store.update) {
        const counts = choice.toWrite(undefined);
        await store.save({ policy: mine, completionTokens, choice: counts } satisfies SavedRouter);
        choice.written(counts);
        synced = mine;
        updatesAtSync = updatesAtStart;
        return;
      }
      const since = synced;
      // Nothing stored, or a snapshot of another build: this instance's learning is the state.
      const written = (await store.update((current) => ({
        policy: tryMerge((current as Partial<SavedRouter> | undefined)?.policy, since, mine) ?? mine,
        completionTokens,
        choice: choice.toWrite((current as Partial<SavedRouter> | undefined)?.choice),
      }))) as SavedRouter;
      choice.written(written.choice);
      // Outcomes learned while the store was busy are kept on top of the merged state.
      if (updates() === updatesAtStart) policy.load(written.policy);
      else policy.load(mergePolicySnapshots(written.policy, mine, policy.serialize()));
      synced = written.policy;
      updatesAtSync = updatesAtStart;
    },
    async restore() {
      const saved = (await state.weights?.load()) as Partial<SavedRouter> | undefined | null;
      if (!saved || typeof saved !== 'object') return;
      // Token estimates first: a policy snapshot the current policy cannot take must not lose them.
      for (const [family, tokens] of Object.entries(saved.completionTokens ?? {})) {
        if (taskFamilies.includes(family as TaskFamily) && Number.isFinite(tokens)) tokensByFamily.set(family as TaskFamily, tokens);
      }
      choice.restored(saved.choice);
      if (!saved.policy) return;
      // What this instance learned since it last synchronised stays, on top of the shared state.
      // A snapshot of another build is not merged: load() below says why it cannot be taken.
      const next = updates() === updatesAtSync ? saved.policy : (tryMerge(saved.policy, synced, policy.serialize()) ?? saved.policy);
      policy.load(next);
      synced = saved.policy;
      updatesAtSync = updates();
    },
  };
}
