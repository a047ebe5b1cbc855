import { type Capability, type Catalog, type ModelInfo, isRetired } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';

/** Capabilities the request cannot be served without (for the context-overflow fallback). */
export function requiredCapabilities(request: ChatRequest): Capability[] {
  const needed: Capability[] = [];
  if (request.tools && request.tools.length > 0 && request.toolChoice !== 'none') needed.push('tools');
  const format = request.responseFormat?.type;
  if (format === 'json_object' || format === 'json_schema') needed.push('json');
  let vision = false;
  let audio = false;
  for (const message of request.messages) {
    if (typeof message.content === 'string' || message.content === null) continue;
    for (const part of message.content) {
      if (part.type === 'image') vision = true;
      else if (part.type === 'audio') audio = true;
    }
  }
  if (vision) needed.push('vision');
  if (audio) needed.push('audio');
  return needed;
}

function serves(model: ModelInfo, needed: readonly Capability[]): boolean {
  for (const capability of needed) if (!model.capabilities.includes(capability)) return false;
  return true;
}

function byQualityThenPrice(a: ModelInfo, b: ModelInfo): number {
  return b.qualityPrior - a.qualityPrior || a.inputPricePerMTok + a.outputPricePerMTok - (b.inputPricePerMTok + b.outputPricePerMTok);
}

/**
 * Routable chat models of the catalog with a larger context window than `model` that serve `needed`:
 * the same family first, then the smallest sufficient window, then quality. Used after a
 * context-length error, whatever the alias or pin (the same window cannot succeed).
 */
export function largerContextModels(catalog: Catalog, model: ModelInfo, needed: readonly Capability[]): ModelInfo[] {
  return catalog
    .list({ kind: 'chat' })
    .filter((m) => m.contextWindow > model.contextWindow && m.routable !== false && serves(m, needed) && !isRetired(m))
    .sort(
      (a, b) =>
        Number(b.family === model.family) - Number(a.family === model.family) ||
        a.contextWindow - b.contextWindow ||
        byQualityThenPrice(a, b),
    );
}
