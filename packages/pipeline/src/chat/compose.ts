import type { ChatResponse } from '../gateway-types.js';
import type { ChatTurn } from './chat-turn.js';

/** What a stage calls to hand the turn on: the rest of the chain's answer. */
export type Next = () => Promise<ChatResponse>;

/**
 * One stage of a chat request, `(turn, next)` as in Hono's `compose`: it answers itself (a cache
 * hit) or does its part and returns `next()`; the last stage answers. Cleanup is not a stage's:
 * the request's spend is ended once, by whoever runs the chain.
 */
export type ChatStage = (turn: ChatTurn, next: Next) => Promise<ChatResponse>;

/**
 * The stages as one function of the turn, run in order. A stage may call `next` once at most;
 * a chain whose last stage calls `next` is a programming error.
 */
export function compose(stages: readonly ChatStage[]): (turn: ChatTurn) => Promise<ChatResponse> {
  return (turn) => {
    const dispatch = (index: number): Promise<ChatResponse> => {
      const stage = stages[index];
      if (!stage) return Promise.reject(new Error('the last chat stage must answer, not call next()'));
      return stage(turn, () => dispatch(index + 1));
    };
    return dispatch(0);
  };
}
