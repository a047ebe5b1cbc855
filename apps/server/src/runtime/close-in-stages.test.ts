import { describe, expect, it } from 'vitest';
import { closeInStages } from './close-in-stages.js';

describe('closeInStages', () => {
  it('closes every later stage when a part fails, in order, then throws the first failure', async () => {
    const closed: string[] = [];
    const part = (name: string, fails = false) => async () => {
      closed.push(name);
      if (fails) throw new Error(`${name} failed`);
    };
    const closing = closeInStages([[part('shadow')], [part('ledger', true), part('cache')], [part('encoder')], [part('db', true)]]);
    await expect(closing).rejects.toThrow('ledger failed');
    expect(closed).toEqual(['shadow', 'ledger', 'cache', 'encoder', 'db']);
  });

  it('starts a stage only once the one before has settled', async () => {
    const events: string[] = [];
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const closing = closeInStages([[() => slow.then(() => events.push('ledger flushed'))], [() => events.push('encoder closed')]]);
    await Promise.resolve();
    expect(events).toEqual([]);
    release();
    await closing;
    expect(events).toEqual(['ledger flushed', 'encoder closed']);
  });
});
