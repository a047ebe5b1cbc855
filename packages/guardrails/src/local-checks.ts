import type { LocalGuardrail } from '@svc/core';
import { createPiiRedactor, type PiiRedactor } from '@svc/memory';
import { DEFAULT_INJECTION_THRESHOLD, scorePromptInjection } from './prompt-injection.js';
import { findSecrets, redactSecrets } from './secrets.js';
import type { GuardrailText } from './guardrail-types.js';

/** What a local check found in a stage's texts, and how to hide it when the action is `redact`. */
export interface LocalFinding {
  flagged: boolean;
  detail?: string;
  /** pii and secrets: the text with what was found replaced (the same placeholders for the same values). */
  redact?: (text: string) => string;
}

const countsDetail = (counts: Partial<Record<string, number>>): string =>
  Object.entries(counts)
    .map(([kind, n]) => `${kind}:${n}`)
    .join(',');

function findPii(texts: readonly GuardrailText[]): LocalFinding {
  const redactor: PiiRedactor = createPiiRedactor();
  for (const { text } of texts) redactor.redact(text);
  const detail = countsDetail(redactor.counts);
  return detail === '' ? { flagged: false } : { flagged: true, detail, redact: redactor.redact };
}

function findSecretsIn(texts: readonly GuardrailText[]): LocalFinding {
  const counts: Partial<Record<string, number>> = {};
  for (const { text } of texts) {
    for (const [kind, n] of Object.entries(findSecrets(text))) counts[kind] = (counts[kind] ?? 0) + n;
  }
  const detail = countsDetail(counts);
  return detail === '' ? { flagged: false } : { flagged: true, detail, redact: (text) => redactSecrets(text) };
}

/** Only what users and tools wrote can inject: the operator's own system prompt is not scored. */
function findInjection(texts: readonly GuardrailText[], threshold: number): LocalFinding {
  for (const { role, text } of texts) {
    if (role === 'system' || role === 'developer') continue;
    const { score, rules } = scorePromptInjection(text);
    if (score >= threshold) return { flagged: true, detail: `score ${score.toFixed(2)}: ${rules.join(',')}` };
  }
  return { flagged: false };
}

/** Runs one in-process check over a stage's texts. */
export function runLocalCheck(check: LocalGuardrail, texts: readonly GuardrailText[]): LocalFinding {
  switch (check.kind) {
    case 'pii':
      return findPii(texts);
    case 'secrets':
      return findSecretsIn(texts);
    case 'prompt_injection':
      return findInjection(texts, check.threshold ?? DEFAULT_INJECTION_THRESHOLD);
  }
}
