import { loadArenaBench } from './arena.js';
import { embedItems } from './embed.js';
import { findRouteLlmDir, type Item, loadMmluPro, loadRouteLlmMmlu, mmluSubjectGroups } from './data.js';
import { loadLlmRouter } from './llmrouter.js';

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
  /** Fetched ulab-uiuc/LLMRouter git dir (default /work/.mirror/ulab-uiuc+LLMRouter/repo or SVC_LLMROUTER). */
  llmRouter?: string;
  /** Fetched lmarena/arena-hard-auto git dir (default /work/.mirror/lmarena+arena-hard-auto/repo or SVC_ARENA_HARD). */
  arenaHard?: string;
  embed: boolean;
  /** Keep every n-th prompt of the two MMLU sources (default `SVC_ROUTER_SAMPLE` or 3: they overlap, and embedding is the slow part). */
  sample?: number;
  /** Only these sources (default all). */
  only?: readonly string[];
}

export const defaultMmluPro = process.env.SVC_MMLU_PRO ?? '/work/.mirror/TIGER-AI-Lab+MMLU-Pro/repo';

const defaultSample = Number(process.env.SVC_ROUTER_SAMPLE ?? 3);

export const defaultLlmRouter = process.env.SVC_LLMROUTER ?? '/work/.mirror/ulab-uiuc+LLMRouter/repo';

/** Names of the sources, in load order. */
export const sourceNames = ['routellm-mmlu', 'mmlu-pro', 'llmrouter', 'arena-bench'] as const;

/** Loads the sources asked for (`only`), each read only when asked: a missing snapshot fails only the runs that need it. */
export async function loadSources(options: SourceOptions): Promise<Source[]> {
  const every = options.sample ?? defaultSample;
  let pro: Item[] | undefined;
  const allPro = () => (pro ??= loadMmluPro(options.mmluPro ?? defaultMmluPro));
  const loaders: Record<(typeof sourceNames)[number], () => Item[]> = {
    'routellm-mmlu': () => loadRouteLlmMmlu(findRouteLlmDir(process.cwd(), options.mmlu), mmluSubjectGroups(allPro())).filter((_, i) => i % every === 0),
    'mmlu-pro': () => allPro().filter((_, i) => i % every === 0),
    llmrouter: () => loadLlmRouter(options.llmRouter ?? defaultLlmRouter),
    'arena-bench': () => loadArenaBench({ mirror: options.arenaHard }),
  };
  const out: Source[] = [];
  for (const name of sourceNames) {
    if (options.only && !options.only.includes(name)) continue;
    const items = loaders[name]();
    out.push({ name, items, vectors: options.embed ? await embedItems(name, items) : [] });
  }
  return out;
}
