import { type Answer, type AnswerContext, jsonAnswer } from './answer.js';
import { invalidRequest } from './faults.js';
import { asArray, asRecord, asString } from './json.js';

const CATEGORIES = ['harassment', 'harassment/threatening', 'hate', 'hate/threatening', 'self-harm', 'sexual', 'violence', 'violence/graphic'] as const;
/** A text containing one of these words is flagged for the category: enough to test both verdicts. */
const TRIGGERS: Readonly<Record<string, (typeof CATEGORIES)[number]>> = { kill: 'violence', hurt: 'violence', hate: 'hate', idiot: 'harassment' };

/** The texts and whether an image is among the inputs, or undefined when `input` is malformed. */
function readInputs(raw: unknown): { texts: string[]; image: boolean }[] | undefined {
  if (typeof raw === 'string') return [{ texts: [raw], image: false }];
  const list = asArray(raw);
  if (list === undefined || list.length === 0) return undefined;
  if (list.every((item) => typeof item === 'string')) return list.map((text) => ({ texts: [text as string], image: false }));
  // The multimodal form: one input made of text and image parts.
  const texts: string[] = [];
  let image = false;
  for (const item of list) {
    const part = asRecord(item);
    if (part?.['type'] === 'text' && asString(part['text']) !== undefined) texts.push(part['text'] as string);
    else if (part?.['type'] === 'image_url') image = true;
    else return undefined;
  }
  return [{ texts, image }];
}

/**
 * `POST /v1/moderations`: one verdict per input; a text with a trigger word (`kill`, `hurt`,
 * `hate`, `idiot`) is flagged for its category, everything else passes. Omni-style answer with
 * `category_applied_input_types`.
 */
export function openaiModerations(body: Record<string, unknown>, ctx: AnswerContext): Answer {
  const inputs = readInputs(body['input']);
  if (inputs === undefined) return invalidRequest('openai', "'input' must be a string, an array of strings or an array of content parts", ctx.id);
  const model = asString(body['model']) ?? 'omni-moderation-latest';
  const results = inputs.map(({ texts, image }) => {
    const words = texts.join(' ').toLowerCase();
    const hit = new Set(Object.entries(TRIGGERS).filter(([word]) => words.includes(word)).map(([, category]) => category));
    const categories: Record<string, boolean> = {};
    const scores: Record<string, number> = {};
    const applied: Record<string, string[]> = {};
    for (const category of CATEGORIES) {
      categories[category] = hit.has(category);
      scores[category] = hit.has(category) ? 0.97 : 0.0001;
      applied[category] = image && !category.startsWith('hate') && !category.startsWith('harassment') ? ['text', 'image'] : ['text'];
    }
    return { flagged: hit.size > 0, categories, category_scores: scores, category_applied_input_types: applied };
  });
  return jsonAnswer(200, JSON.stringify({ id: `modr-${ctx.id}`, model, results }), { 'x-request-id': `req_${ctx.id}` });
}
