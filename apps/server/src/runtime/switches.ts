import { ALL_FLAGS_ON, DEGRADATION_GAUGE, type FlagKey, SHARED_SWITCHES_PREFIX, SharedSwitches } from '@svc/pipeline';
import type { ConfigFile } from './config-file.js';
import type { RuntimeBase } from './runtime-base.js';

/**
 * The feature flags and degradation level of this deployment, shared through the kv. A flag's
 * default is `flags.<key>` in `SVC_CONFIG`, else on; `SVC_ROUTER_EXPLORE` is `router_exploration`'s
 * default. Their state is exported as `svc_feature_flag_enabled` and `svc_degradation_level`.
 */
export function createSwitches({ env, kv, kvNamespace, servedBefore, metrics, logger }: RuntimeBase, file: ConfigFile | undefined): SharedSwitches {
  const defaults: Record<FlagKey, boolean> = { ...ALL_FLAGS_ON, ...file?.flags };
  if (env.SVC_ROUTER_EXPLORE !== undefined) defaults.router_exploration = env.SVC_ROUTER_EXPLORE;
  const switches = new SharedSwitches({
    kv,
    // The deployment's own; an upgrade adopts what the earlier release shared by every deployment on the kv.
    prefix: `${kvNamespace}switches:`,
    earlierPrefix: servedBefore ? SHARED_SWITCHES_PREFIX : undefined,
    defaults,
    available: { exact_cache: env.SVC_CACHE_TTL_SECS > 0, semantic_cache: env.SVC_SEMANTIC_CACHE ?? true },
    onError: (error) => logger.warn({ err: error }, 'feature flags / degradation level unavailable; keeping the last ones'),
  });
  metrics.watch({ degradationLevel: () => DEGRADATION_GAUGE[switches.current.level], flags: () => switches.current.flags });
  return switches;
}
