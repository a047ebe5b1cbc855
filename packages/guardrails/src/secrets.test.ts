import { describe, expect, it } from 'vitest';
import { findSecrets, redactSecrets } from './secrets.js';

const pem = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun', '-----END RSA PRIVATE KEY-----'].join('\n');

describe('secrets in prompts', () => {
  it.each([
    ['an OpenAI project key', 'use sk-proj-Abc123def456ghi789jkl012mno345 for the call', 'API_KEY'],
    ['an Anthropic key', 'key: sk-ant-api03-AAAAbbbbCCCCddddEEEEffff', 'API_KEY'],
    ['a Stripe live key', 'stripe sk_live_51H8abcdefghijklmnopqrstu', 'API_KEY'],
    ['a GitHub token', 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', 'API_KEY'],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE', 'AWS_KEY'],
    ['an AWS secret', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'AWS_KEY'],
    ['a JWT', 'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'JWT'],
    ['a bearer header', 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345', 'BEARER_TOKEN'],
    ['a password assignment', 'DB_PASSWORD="hunter2hunter2"', 'PASSWORD'],
    ['a PEM private key', `here is my key\n${pem}\nthanks`, 'PRIVATE_KEY'],
  ])('finds %s', (_name, text, kind) => {
    expect(findSecrets(text)).toEqual({ [kind]: 1 });
    expect(redactSecrets(text)).toContain(`[SECRET_${kind}]`);
  });

  it('redacts a private key block whole, and a truncated one to its end', () => {
    expect(redactSecrets(`a\n${pem}\nb`)).toBe('a\n[SECRET_PRIVATE_KEY]\nb');
    expect(redactSecrets('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg')).toBe('[SECRET_PRIVATE_KEY]');
  });

  it.each([
    'How do I rotate an API key safely?',
    'The password must be at least 8 characters.',
    'sk-short',
    'Call the endpoint with the header Authorization: Bearer <token>.',
    'My order number is 4111111111111111 and my email is ann@example.com',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(findSecrets(text)).toEqual({});
  });
});
