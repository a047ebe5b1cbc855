import { embedItems } from './embed.js';
import { findRouteLlmDir, type Item, loadMmluPro, loadRouteLlmMmlu, mmluSubjectGroups } from './data.js';

/** One labelled data set with its prompts' vectors. */
export interface Source {
  name: string;
  items: Item[];
  vectors: Float32Array[];
}

export interface SourceOptions {
  /** RouteLLM MMLU folder (default: found under shared/data). */
  mmlu?: string;
  /** Fetched TIGER-AI-Lab/MMLU-Pro git dir (default /work/.mirror/TIGER-AI-Lab+MMLU-Pro/repo or SVC_MMLU_PRO). */
  mmluPro?: string;
  embed: boolean;
  /** Only these sources (default both). */
  only?: readonly string[];
}

export const defaultMmluPro = process.env.SVC_MMLU_PRO ?? '/work/.mirror/TIGER-AI-Lab+MMLU-Pro/repo';

export async function loadSources(options: SourceOptions): Promise<Source[]> {
  const pro = loadMmluPro(options.mmluPro ?? defaultMmluPro);
  const mmlu = loadRouteLlmMmlu(findRouteLlmDir(process.cwd(), options.mmlu), mmluSubjectGroups(pro));
  const out: Source[] = [];
  for (const [name, items] of [['routellm-mmlu', mmlu], ['mmlu-pro', pro]] as const) {
    if (options.only && !options.only.includes(name)) continue;
    out.push({ name, items, vectors: options.embed ? await embedItems(name, items) : [] });
  }
  return out;
}
