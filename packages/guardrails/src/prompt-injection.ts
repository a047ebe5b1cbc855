import { learnedInjectionProbability } from './injection-model.js';

/**
 * A small, explainable prompt-injection detector: named rules, each a pattern with a weight, and a
 * learned reader of the text's words and word pairs (`injection-model.ts`, logistic, trained on a
 * public labelled set), combined as independent evidence (`1 - Π(1 - weight)`), so one strong
 * signal ("ignore the previous instructions") flags on its own and weak ones ("act as", "from now
 * on") only together. English and German (the languages of the public set it was tuned and
 * trained on: tooling/evals guardrails).
 */
interface InjectionRule {
  name: string;
  weight: number;
  pattern: RegExp;
}

const RULES: readonly InjectionRule[] = [
  {
    name: 'override_instructions',
    weight: 0.9,
    pattern:
      /\b(?:ignor\w*|disregard\w*|forget|skip|overlook|neglect|override|abandon|drop)\b[^.!?\n]{0,40}\b(?:instructions?|prompts?|rules|tasks?|directions?|guidelines|context|orders|commands|assignments?|constraints|everything|information|said|above|articles?)\b/i,
  },
  {
    name: 'override_instructions_de',
    weight: 0.9,
    pattern: /\b(?:ignorier\w*|vergiss|vergessen|vergesst|missacht\w*|verwirf|abweichend)\b[^.!?\n]{0,40}\b(?:anweisung\w*|aufgabe\w*|befehl\w*|instruktion\w*|informationen|alles|regeln|vorgaben|gesagte)\b/i,
  },
  { name: 'override_instructions_es', weight: 0.9, pattern: /\bolvid\w*\b[^.!?\n]{0,30}\b(?:todo|instrucciones|lo anterior)\b/i },
  { name: 'override_instructions_other', weight: 0.9, pattern: /(?:oubli\w*|zaboravi|забуд\S*)[^.!?\n]{0,30}(?:instruction|instrukcij|инструкц)/iu },
  { name: 'instructions_replaced', weight: 0.6, pattern: /\b(?:your (?:new )?instructions are|change your instructions|additional instructions?\s*[-:]|instruction\s*:)/i },
  {
    name: 'previous_dismissed',
    weight: 0.7,
    pattern: /\b(?:previous|prior|earlier|bisherigen|vorherigen)\b[^.!?\n]{0,40}\b(?:irrelevant|unwichtig|not important|no longer (?:apply|valid)|nicht (?:ganz )?(?:großartig|wichtig))/i,
  },
  { name: 'override_reversed_de', weight: 0.8, pattern: /\b(?:anweisungen|ausführungen|aufgaben|instruktionen)\b[^.!?\n]{0,20}\b(?:ignorieren|vergessen|missachten)\b/i },
  { name: 'reveal_prompt', weight: 0.75, pattern: /\b(?:show|reveal|print|tell|output|repeat|give|display|spell|leak|write)\b[^.!?\n]{0,30}\b(?:your|the|all|initial|hidden|system)\b[^.!?\n]{0,20}\b(?:prompts?|instructions|system message|prompt texts?)\b/i },
  { name: 'reveal_prompt_de', weight: 0.75, pattern: /\b(?:zeig\w*|gib|nenn\w*|verrat\w*|wiederhol\w*|ausgeben)\b[^.!?\n]{0,30}\b(?:prompt\w*|anweisungen|systemnachricht)\b/i },
  { name: 'new_task', weight: 0.55, pattern: /\b(?:new (?:task|instructions?|assignment|role)|now (?:focus|concentrate) on|from now on|your (?:new|next) task|instead,? (?:you|answer|say|write))\b/i },
  { name: 'new_task_de', weight: 0.55, pattern: /\b(?:neue(?:n|r)? (?:aufgabe|anweisung\w*|rolle)|ab (?:jetzt|sofort|nun)|konzentriere dich (?:jetzt |nun )?auf|stattdessen)\b/i },
  { name: 'role_play', weight: 0.5, pattern: /\b(?:(?:act|behave|respond|answer) as(?: if)?|pretend (?:to be|you are|you're)|(?:now|then),? you are|i want you to act|pretend\b|stay in (?:character|(?:their|your) roles?)|absorbed in your role|you are now|imagine you are|roleplay|role-play|play the role)\b/i },
  { name: 'role_play_de', weight: 0.5, pattern: /\b(?:du bist (?:jetzt|nun|ab jetzt)|tu so,? als|stell dir vor,? du bist|spiel(?:e)? die rolle|agier\w* als|verhalte dich wie|(?:jetzt|nun) bist du|als [\w-]+ fungieren|in deiner rolle)\b/i },
  { name: 'jailbreak', weight: 0.7, pattern: /\b(?:DAN|do anything now|jailbreak\w*|developer mode|dev mode|god mode|unfiltered|uncensored|no (?:restrictions|limitations|filters|rules)|without (?:any )?(?:restrictions|limitations|filters|censorship))\b/i },
  { name: 'attention_stop', weight: 0.55, pattern: /(?:^|\n)\s*(?:attention|achtung|stop|stopp|halt|important|wichtig)\b\s*[-:!,]/i },
  {
    name: 'praise_then_pivot',
    weight: 0.5,
    pattern: /\b(?:well done|very good|simply great|great job|that is (?:enough|done)|that was (?:ok|good|fine)|sehr gut|gut gemacht|einfach großartig|das genügt|das ist erledigt|das war (?:schon mal )?ok)\b[\s\S]{0,80}?\b(?:now|nun|jetzt)\b/i,
  },
  { name: 'output_only', weight: 0.5, pattern: /\b(?:do not answer (?:this|the) question|just (?:output|say|print)|only (?:output|say|print)|nur (?:ausgeben|sagen))\b/i },
  { name: 'ignore_context', weight: 0.6, pattern: /\bnot (?:by|from|based on) the (?:articles?|context|documents?)\b|\bwhat is written above\b|\bwas steht oben\b/i },
  { name: 'dictated_answer', weight: 0.5, pattern: /\b(?:repeat after me|say (?:yes|no)\b|include that you (?:hate|love)|make something up|erfinde etwas|sag (?:ja|nein)\b)/i },
  { name: 'assigned_identity', weight: 0.5, pattern: /(?:^|[.?!]\s+)(?:[Yy]ou are|[Dd]u bist) (?:the |a |an |der |die |das |ein |eine )?[A-Z][\w-]+(?: [A-Z][\w-]+)*[.,]/ },
  { name: 'pwned', weight: 0.7, pattern: /\bpwned\b/i },
  { name: 'delimiter_run', weight: 0.6, pattern: /(?:\\ ?n\s*){4,}|(?:\n\s*){8,}|(?:-{3,}|={3,}|#{3,})\s*(?:end|system|new)\b/i },
  { name: 'but_now', weight: 0.35, pattern: /\b(?:but now|now,? (?:please )?(?:forget|ignore|say|write|tell|answer)|nevermind|never mind|aber jetzt|jetzt (?:bitte )?(?:vergiss|sag|schreib))\b/i },
  { name: 'previous_reference', weight: 0.3, pattern: /\b(?:(?:all |the )?(?:previous|prior|above|preceding|earlier) (?:instructions|prompts?|text|tasks?|information)|vorherigen|vorangegangenen|obigen)\b/i },
];

export interface InjectionScore {
  /** 0..1: the combined weight of the rules that matched and the learned reader's probability. */
  score: number;
  /** The names of the rules that matched, in rule order, then `learned` when the reader's probability is 0.5 or more (what the decision cites). */
  rules: string[];
}

/** Scores `text`; the check flags it when `score >= threshold` (default 0.5). Without `learned` only the rules count. */
export function scorePromptInjection(text: string, learned = true): InjectionScore {
  let miss = 1;
  const rules: string[] = [];
  for (const rule of RULES) {
    if (!rule.pattern.test(text)) continue;
    miss *= 1 - rule.weight;
    rules.push(rule.name);
  }
  if (learned) {
    const probability = learnedInjectionProbability(text);
    miss *= 1 - probability;
    if (probability >= 0.5) rules.push('learned');
  }
  return { score: 1 - miss, rules };
}

export const DEFAULT_INJECTION_THRESHOLD = 0.5;
