import type { ModelInfo, UnitPrices } from '@svc/catalog';
import { perMillion, roundUsd as round } from './usd.js';

/** The price table a model needs for a non-token endpoint is missing: a catalog error, not a free call. */
export class MissingPriceError extends Error {
  override readonly name = 'MissingPriceError';
}

function prices(model: Pick<ModelInfo, 'id' | 'unitPrices'>): UnitPrices {
  if (!model.unitPrices) throw new MissingPriceError(`${model.id} has no unit prices in the catalog`);
  return model.unitPrices;
}

/**
 * Images: `count` x the price of `quality:size`, else `size`, else `default`. Throws
 * MissingPriceError when none applies (never bills an image as free by accident).
 */
export function imageCost(model: Pick<ModelInfo, 'id' | 'unitPrices'>, input: { count: number; size: string; quality?: string }): number {
  const table = prices(model).perImage ?? {};
  const each = (input.quality ? table[`${input.quality}:${input.size}`] : undefined) ?? table[input.size] ?? table.default;
  if (each === undefined) throw new MissingPriceError(`${model.id} has no image price for ${input.quality ? `${input.quality}:` : ''}${input.size}`);
  return round(input.count * each);
}

/** Audio (transcription, translation, realtime): per minute (or the hourly rate's share of it), billed by the started second. */
export function audioCost(model: Pick<ModelInfo, 'id' | 'unitPrices'>, seconds: number): number {
  const table = prices(model);
  const perMinute = table.perMinute ?? (table.perHour === undefined ? undefined : table.perHour / 60);
  if (perMinute === undefined) throw new MissingPriceError(`${model.id} has no per-minute or per-hour price`);
  return perMinuteCost(seconds, perMinute);
}

/** `perMinute` USD for the started seconds of `seconds` (the platform's voice fee is billed this way too). */
export function perMinuteCost(seconds: number, perMinute: number): number {
  return round((Math.ceil(Math.max(0, seconds)) / 60) * perMinute);
}

/** Speech synthesis: per million input characters. */
export function speechCost(model: Pick<ModelInfo, 'id' | 'unitPrices'>, characters: number): number {
  const perMChars = prices(model).perMChars;
  if (perMChars === undefined) throw new MissingPriceError(`${model.id} has no per-character price`);
  return round(perMillion(Math.max(0, characters) * perMChars));
}
