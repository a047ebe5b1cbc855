import { isIP } from 'node:net';

/** Kinds of personal data {@link redactPii} replaces. */
export type PiiKind = 'API_KEY' | 'EMAIL' | 'IBAN' | 'CARD' | 'IP' | 'PHONE';

export interface Redaction {
  /** The text with every detected value replaced by a placeholder such as `[EMAIL_1]`. */
  text: string;
  /** How many distinct values of each kind were replaced. */
  counts: Partial<Record<PiiKind, number>>;
  /**
   * Puts the original values back where the answer repeats a placeholder this redaction issued,
   * exactly as issued; any other bracketed text is left alone.
   */
  restore(answer: string): string;
}

interface Detector {
  kind: PiiKind;
  pattern: RegExp;
  /** Extra check on a match (checksums, ranges); the match is kept as is when false. */
  accept?: (match: string) => boolean;
}

const digitsOf = (value: string): string => value.replace(/\D/g, '');

/** The Luhn checksum every payment card number satisfies. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616: move the first four characters to the end, letters to 10..35, remainder mod 97 = 1. */
export function ibanValid(iban: string): boolean {
  const compact = iban.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

// Order matters: earlier detectors claim their text before later, looser ones see it
// (an API key may contain digit runs, an IBAN a card-like run, a card a phone-like run).
const DETECTORS: readonly Detector[] = [
  {
    kind: 'API_KEY',
    pattern:
      /\b(?:sk|pk|rk)-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{16,}|\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}\b|\bAIza[0-9A-Za-z_-]{35}\b/g,
  },
  { kind: 'EMAIL', pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g },
  { kind: 'IBAN', pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g, accept: ibanValid },
  {
    kind: 'CARD',
    pattern: /\b\d(?:[ -]?\d){12,18}\b/g,
    accept: (match) => {
      const digits = digitsOf(match);
      return digits.length >= 13 && digits.length <= 19 && luhnValid(digits);
    },
  },
  {
    kind: 'IP',
    pattern: /\b(?:\d{1,3}\.){3}\d{1,3}\b|(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])/g,
    accept: (match) => isIP(match) !== 0,
  },
  {
    kind: 'PHONE',
    // Never a piece of a longer digit run ("4111 1111 1111 1112" is no phone in part).
    pattern: /(?<![\w+]|\d[ .-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d(?:[ .-]?\d){5,14}(?!\w|[ .-]\d)/g,
    accept: (match) => {
      const digits = digitsOf(match);
      // An international prefix or parentheses mark a phone number; otherwise only 9+ digits
      // (shorter runs are order numbers, years, amounts), and never an ISO date.
      if (/^\d{4}-\d{2}-\d{2}$/.test(match)) return false;
      const marked = match.startsWith('+') || match.includes('(');
      return digits.length <= 15 && (marked ? digits.length >= 7 : digits.length >= 9);
    },
  },
];

/** One redaction shared by several texts (the messages of a request): equal values get equal placeholders. */
export interface PiiRedactor {
  /** `text` with every detected value replaced by its placeholder. */
  redact(text: string): string;
  /** How many distinct values of each kind were replaced so far. */
  readonly counts: Partial<Record<PiiKind, number>>;
  /** See {@link Redaction.restore}. */
  restore(answer: string): string;
}

/** A {@link PiiRedactor} with no placeholders issued yet. */
export function createPiiRedactor(): PiiRedactor {
  const placeholders = new Map<string, string>();
  const originals = new Map<string, string>();
  const counts: Partial<Record<PiiKind, number>> = {};

  return {
    counts,
    redact(text: string): string {
      let redacted = text;
      for (const detector of DETECTORS) {
        redacted = redacted.replace(detector.pattern, (match) => {
          if (detector.accept && !detector.accept(match)) return match;
          const key = `${detector.kind}\u0000${match}`;
          let placeholder = placeholders.get(key);
          if (!placeholder) {
            const n = (counts[detector.kind] ?? 0) + 1;
            counts[detector.kind] = n;
            placeholder = `[${detector.kind}_${n}]`;
            placeholders.set(key, placeholder);
            originals.set(placeholder, match);
          }
          return placeholder;
        });
      }
      return redacted;
    },
    restore(answer: string): string {
      if (originals.size === 0) return answer;
      return answer.replace(/\[(?:API_KEY|EMAIL|IBAN|CARD|IP|PHONE)_\d+\]/g, (placeholder) => originals.get(placeholder) ?? placeholder);
    },
  };
}

/**
 * Replaces emails, API keys, IBANs (checksum-valid), card numbers (Luhn-valid), IPv4/IPv6
 * addresses and phone numbers in `text` with numbered placeholders (`[EMAIL_1]`, `[CARD_2]`);
 * a value that occurs twice gets the same placeholder. Pure: nothing is stored elsewhere.
 */
export function redactPii(text: string): Redaction {
  const redactor = createPiiRedactor();
  return { text: redactor.redact(text), counts: redactor.counts, restore: redactor.restore };
}
