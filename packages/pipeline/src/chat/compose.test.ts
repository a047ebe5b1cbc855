import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../gateway-types.js';
import type { ChatTurn } from './chat-turn.js';
import { type ChatStage, compose } from './compose.js';

const turn = {} as ChatTurn;
const answer = (text: string): ChatResponse => ({ kind: 'json', result: { model: text, choices: [] }, metadata: {} as never, headers: {} });

describe('compose', () => {
  it('runs the stages in order until one answers; later stages do not run', async () => {
    const ran: string[] = [];
    const pass = (name: string): ChatStage => async (_turn, next) => {
      ran.push(name);
      return next();
    };
    const answers = (name: string): ChatStage => async () => {
      ran.push(name);
      return answer(name);
    };
    expect(await compose([pass('a'), pass('b'), answers('c'), answers('d')])(turn)).toMatchObject({ result: { model: 'c' } });
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('lets a stage answer without the rest, and rejects a chain whose last stage calls next', async () => {
    const hit: ChatStage = async () => answer('hit');
    const never: ChatStage = async () => {
      throw new Error('must not run');
    };
    expect(await compose([hit, never])(turn)).toMatchObject({ result: { model: 'hit' } });
    await expect(compose([async (_t, next) => next()])(turn)).rejects.toThrow(/last chat stage/);
  });
});
