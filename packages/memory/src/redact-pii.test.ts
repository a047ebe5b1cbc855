import { describe, expect, it } from 'vitest';
import { ibanValid, luhnValid, redactPii } from './redact-pii.js';

describe('redactPii', () => {
  it('replaces emails and restores them in the answer', () => {
    const redaction = redactPii('Mail ada@example.com and bob@example.org, again ada@example.com.');
    expect(redaction.text).toBe('Mail [EMAIL_1] and [EMAIL_2], again [EMAIL_1].');
    expect(redaction.counts).toEqual({ EMAIL: 2 });
    expect(redaction.restore('I wrote to [EMAIL_2] and [EMAIL_1].')).toBe('I wrote to bob@example.org and ada@example.com.');
  });

  it('replaces Luhn-valid card numbers only', () => {
    expect(redactPii('card 4111 1111 1111 1111 ok').text).toBe('card [CARD_1] ok');
    expect(redactPii('card 4111-1111-1111-1111').text).toBe('card [CARD_1]');
    expect(redactPii('ref 4111 1111 1111 1112').text).toBe('ref 4111 1111 1111 1112');
  });

  it('replaces checksum-valid IBANs only', () => {
    expect(redactPii('pay to GB82 WEST 1234 5698 7654 32 today').text).toBe('pay to [IBAN_1] today');
    expect(redactPii('pay to DE89370400440532013000').text).toBe('pay to [IBAN_1]');
    expect(redactPii('pay to GB00 WEST 1234 5698 7654 32').text).not.toContain('[IBAN');
  });

  it('replaces API keys', () => {
    const text = 'keys sk-proj-abcdefghijklmnopqrstuvwx and AKIAIOSFODNN7EXAMPLE and ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    expect(redactPii(text).text).toBe('keys [API_KEY_1] and [API_KEY_2] and [API_KEY_3]');
  });

  it('replaces IPv4 and IPv6 addresses but not version numbers', () => {
    expect(redactPii('from 192.168.1.20 and 2001:db8::8a2e:370:7334').text).toBe('from [IP_1] and [IP_2]');
    expect(redactPii('version 1.2.3 and 999.1.1.1').text).toBe('version 1.2.3 and 999.1.1.1');
  });

  it('replaces phone numbers but not dates, years or short numbers', () => {
    expect(redactPii('call +44 20 7946 0958 or (555) 123-4567 or 0612345678').text).toBe('call [PHONE_1] or [PHONE_2] or [PHONE_3]');
    expect(redactPii('on 2026-03-14, order 12345678, in 2024-2025, total 1500').text).toBe(
      'on 2026-03-14, order 12345678, in 2024-2025, total 1500',
    );
  });

  it('leaves placeholders it did not issue alone and text without PII untouched', () => {
    const redaction = redactPii('nothing to see');
    expect(redaction.text).toBe('nothing to see');
    expect(redaction.restore('[EMAIL_1] stays')).toBe('[EMAIL_1] stays');
    expect(redactPii('a@b.co').restore('[EMAIL_2] [EMAIL_1]')).toBe('[EMAIL_2] a@b.co');
  });

  it('checksums', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
    expect(ibanValid('FR1420041010050500013M02606')).toBe(true);
    expect(ibanValid('FR1420041010050500013M02607')).toBe(false);
  });
});
