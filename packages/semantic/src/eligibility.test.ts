import type { ChatRequest } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { semanticEligible, semanticIneligibility, semanticKeyOf } from './eligibility.js';
import { chatRequest } from './test/index.js';

const chat = chatRequest;
const scope = (request: ChatRequest) => semanticKeyOf(request)?.scope;

describe('semantic eligibility', () => {
  it('serves single-turn and short text conversations that end with a user question', () => {
    expect(semanticEligible(chat('What is the capital of France?'))).toBe(true);
    const conversation = chat('And of Spain?', {
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'What is the capital of France?' },
        { role: 'assistant', content: 'Paris.' },
        { role: 'user', content: [{ type: 'text', text: 'And of Spain?' }] },
      ],
    });
    expect(semanticKeyOf(conversation)?.text).toBe('And of Spain?');
  });

  it('refuses what a paraphrase cannot answer', () => {
    const cases: [string, Partial<ChatRequest>][] = [
      ['tools', { tools: [{ name: 'get_weather' }] }],
      ['logprobs', { logprobs: true }],
      ['enable_cache is false', { svc: { enableCache: false } }],
      ['non-text content', { messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', url: 'https://x/cat.png' }] }] }],
      ['tool turns', { messages: [{ role: 'user', content: 'weather?' }, { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'w', arguments: '{}' }] }, { role: 'tool', content: '20C', toolCallId: 'c1' }, { role: 'user', content: 'thanks, and tomorrow?' }] }],
      ['does not end with a user message', { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hel' }] }],
      ['more than 3 user turns', { messages: Array.from({ length: 7 }, (_, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `turn ${i}` })) }],
      ['question longer than 2000 characters', { messages: [{ role: 'user', content: 'why '.repeat(600) }] }],
      ['system prompt and history longer than 8000 characters', { messages: [{ role: 'system', content: 'rule. '.repeat(1500) }, { role: 'user', content: 'Hi?' }] }],
      ['empty question', { messages: [{ role: 'user', content: '   ' }] }],
    ];
    for (const [reason, extra] of cases) expect(semanticIneligibility(chat('What is the capital of France?', extra)), reason).toBe(reason);
  });

  it('puts the system prompt in the scope, not the embedded text (trivial spacing and case aside)', () => {
    const withSystem = (system: string) => chat('Summarise the French revolution.', { messages: [{ role: 'system', content: system }, { role: 'user', content: 'Summarise the French revolution.' }] });
    expect(semanticKeyOf(withSystem('You are a pirate.'))?.text).toBe('Summarise the French revolution.');
    expect(scope(withSystem('You are a pirate.'))).toBe(scope(withSystem('  you are   a PIRATE. ')));
    expect(scope(withSystem('You are a pirate.'))).not.toBe(scope(withSystem('You are a lawyer.')));
    expect(scope(withSystem('You are a pirate.'))).not.toBe(scope(chat('Summarise the French revolution.')));
  });

  it('keeps paraphrases in one scope and different models or parameter classes apart', () => {
    const base = scope(chat('What is the capital of France?'));
    expect(scope(chat('capital of France?'))).toBe(base);
    expect(scope(chat('What is the capital of France?', { model: 'openai/gpt-4o' }))).not.toBe(base);
    expect(scope(chat('q', { temperature: 0.7 }))).toBe(scope(chat('q', { temperature: 0.8 })));
    expect(scope(chat('q', { temperature: 0.2 }))).not.toBe(scope(chat('q', { temperature: 0.8 })));
    expect(scope(chat('q', { maxTokens: 1000 }))).toBe(scope(chat('q', { maxTokens: 1024 })));
    expect(scope(chat('q', { maxTokens: 100 }))).not.toBe(scope(chat('q', { maxTokens: 1000 })));
    expect(scope(chat('q', { n: 2 }))).not.toBe(scope(chat('q')));
    expect(scope(chat('q', { stop: ['a', 'b'] }))).toBe(scope(chat('q', { stop: ['b', 'a'] })));
    expect(scope(chat('q', { routingHints: { mode: 'quality' } }))).not.toBe(scope(chat('q')));
  });

  it('includes a json_schema in the scope (key order aside)', () => {
    const format = (schema: Record<string, unknown>): Partial<ChatRequest> => ({ responseFormat: { type: 'json_schema', name: 'answer', schema } });
    const a = scope(chat('q', format({ type: 'object', properties: { city: { type: 'string' } } })));
    expect(scope(chat('q', format({ properties: { city: { type: 'string' } }, type: 'object' })))).toBe(a);
    expect(scope(chat('q', format({ type: 'object', properties: { town: { type: 'string' } } })))).not.toBe(a);
    expect(scope(chat('q', { responseFormat: { type: 'json_object' } }))).not.toBe(scope(chat('q')));
  });

  it('compares earlier turns exactly: the same follow-up after another exchange is another scope', () => {
    const followUp = (first: string) => chat('And its population?', { messages: [{ role: 'user', content: first }, { role: 'assistant', content: 'Paris.' }, { role: 'user', content: 'And its population?' }] });
    expect(scope(followUp('Capital of France?'))).toBe(scope(followUp('capital of  france?')));
    expect(scope(followUp('Capital of France?'))).not.toBe(scope(followUp('Capital of Spain?')));
  });
});
