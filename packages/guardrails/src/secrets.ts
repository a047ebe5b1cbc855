/** Kinds of credentials {@link findSecrets} recognises. */
export type SecretKind = 'PRIVATE_KEY' | 'API_KEY' | 'AWS_KEY' | 'JWT' | 'BEARER_TOKEN' | 'PASSWORD';

interface SecretPattern {
  kind: SecretKind;
  pattern: RegExp;
}

// Order matters: a private key block is claimed whole before its base64 lines could look like
// anything else; a bearer token before the API key it may carry; assignments last.
const PATTERNS: readonly SecretPattern[] = [
  { kind: 'PRIVATE_KEY', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: 'BEARER_TOKEN', pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{20,}/g },
  { kind: 'JWT', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'AWS_KEY', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\baws_secret_access_key\s*[:=]\s*["']?[A-Za-z0-9/+]{40}\b/gi },
  {
    kind: 'API_KEY',
    // OpenAI / Anthropic / svc (sk-, sk-proj-, sk-ant-), Stripe, GitHub, Slack, Google, Hugging Face, npm.
    pattern:
      /\b(?:sk|pk|rk)-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{20,}|\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{20,}|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}\b|\bAIza[0-9A-Za-z_-]{35}\b|\bhf_[A-Za-z]{30,}\b|\bnpm_[A-Za-z0-9]{36}\b/g,
  },
  {
    kind: 'PASSWORD',
    // `password = "…"`, `api_key: …`, `DB_PASSWORD=…` with a value of 8+ non-space characters.
    pattern: /\b(?:[A-Z0-9_]*_)?(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)\b["']?\s*[:=]\s*["']?[^\s"',;]{8,}/gi,
  },
];

/** How many credentials of each kind `text` holds (empty when none). */
export function findSecrets(text: string): Partial<Record<SecretKind, number>> {
  const found: Partial<Record<SecretKind, number>> = {};
  redactSecrets(text, (kind) => {
    found[kind] = (found[kind] ?? 0) + 1;
  });
  return found;
}

/** `text` with every credential replaced by `[SECRET_<KIND>]`; `onFound` hears each one. */
export function redactSecrets(text: string, onFound?: (kind: SecretKind) => void): string {
  let redacted = text;
  for (const { kind, pattern } of PATTERNS) {
    redacted = redacted.replace(pattern, () => {
      onFound?.(kind);
      return `[SECRET_${kind}]`;
    });
  }
  return redacted;
}
