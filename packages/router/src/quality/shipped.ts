import { type QualityModel, parseQualityModel } from './quality-model.js';
import { shippedQualityModelFile } from './shipped-model.js';

let shipped: QualityModel | undefined;

/** The quality model trained offline and shipped in the package (parsed once, no I/O). */
export function shippedQualityModel(): QualityModel {
  shipped ??= parseQualityModel(shippedQualityModelFile);
  return shipped;
}
