import type { ModelInfo } from './model.js';
import { requiredModelKeys } from './validate.js';

/** An operator override: `id` plus the fields to change, or a whole new model. */
export type ModelOverride = Partial<ModelInfo> & { id: string };

function isComplete(override: ModelOverride): override is ModelInfo {
  return requiredModelKeys.every((key) => override[key] !== undefined);
}

/**
 * Applies overrides in order: a known id is merged field by field (later overrides win), an
 * unknown id is appended and must carry every required field. Input arrays are not modified.
 */
export function applyOverrides(models: readonly ModelInfo[], overrides: readonly ModelOverride[]): ModelInfo[] {
  const result = [...models];
  const index = new Map(result.map((model, i) => [model.id, i]));
  for (const override of overrides) {
    const at = index.get(override.id);
    if (at !== undefined) {
      const merged = { ...result[at]!, ...override };
      result[at] = merged;
      continue;
    }
    if (!isComplete(override)) {
      const missing = requiredModelKeys.filter((key) => override[key] === undefined);
      throw new Error(
        `Catalog override ${JSON.stringify(override.id)} adds a new model but lacks: ${missing.join(', ')}`,
      );
    }
    index.set(override.id, result.length);
    result.push({ ...override });
  }
  return result;
}
