import { type JudgedGateSettings, type PairCounts, type RouteChange, judgeRouteChange } from '@svc/router';

/** The model that served most of a task kind's decisions in a window. */
export interface RouteOfTask {
  taskKind: string;
  model: string;
}

/** Every task kind whose route in the window differs from its baseline's, ruled on by {@link judgeRouteChange}. */
export function routeChanges(current: readonly RouteOfTask[], baseline: readonly RouteOfTask[], pairs: readonly PairCounts[], settings: JudgedGateSettings): RouteChange[] {
  const before = new Map(baseline.map((route) => [route.taskKind, route.model]));
  const changes: RouteChange[] = [];
  for (const route of current) {
    const from = before.get(route.taskKind);
    if (from !== undefined && from !== route.model) changes.push(judgeRouteChange({ taskKind: route.taskKind, from, to: route.model }, pairs, settings));
  }
  return changes;
}
