import { describe, expect, it } from 'vitest';
import { judgeRouteChange, judgedWinRate, wilsonInterval } from '@svc/router';
import { routeChanges } from './judged.js';

const settings = { maxJudgedQualityDrop: 0.05, minJudgedPairs: 20 };

describe('wilsonInterval', () => {
  it("matches the textbook 95 % interval (8 of 10: 0.490..0.943) and stays inside 0..1", () => {
    const interval = wilsonInterval(8, 10)!;
    expect(interval.low).toBeCloseTo(0.4902, 3);
    expect(interval.high).toBeCloseTo(0.9433, 3);
    expect(wilsonInterval(0, 5)!.low).toBeCloseTo(0, 12);
    expect(wilsonInterval(5, 5)!.high).toBeCloseTo(1, 12);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('counts a tie half a win', () => {
    expect(judgedWinRate({ samples: 4, wins: 1, ties: 2 }).win_rate).toBe(0.5);
  });
});

describe('judgeRouteChange', () => {
  const pair = (wins: number, ties: number, samples: number) => [{ taskKind: 'code', model: 'cheap', against: 'dear', samples, wins, ties }];
  const change = { taskKind: 'code', from: 'dear', to: 'cheap' };

  it('promotes a new route judged not worse with confidence', () => {
    expect(judgeRouteChange(change, pair(60, 20, 100), settings)).toMatchObject({ status: 'promoted', reason: 'judged_not_worse' });
  });

  it('refuses one judged worse by more than the tolerance', () => {
    expect(judgeRouteChange(change, pair(20, 10, 100), settings)).toMatchObject({ status: 'refused', reason: 'judged_worse', limit: 0.45 });
  });

  it('refuses when too few pairs were judged or the interval straddles the limit', () => {
    expect(judgeRouteChange(change, pair(10, 0, 10), settings)).toMatchObject({ status: 'refused', reason: 'insufficient_judged_pairs' });
    expect(judgeRouteChange(change, pair(45, 0, 100), settings)).toMatchObject({ reason: 'insufficient_judged_pairs' });
    expect(judgeRouteChange(change, [], settings)).toMatchObject({ reason: 'insufficient_judged_pairs', judged: { samples: 0, win_rate: null } });
  });

  it('lists only the task kinds whose route changed', () => {
    const changes = routeChanges([{ taskKind: 'code', model: 'cheap' }, { taskKind: 'chat', model: 'same' }], [{ taskKind: 'code', model: 'dear' }, { taskKind: 'chat', model: 'same' }], pair(60, 20, 100), settings);
    expect(changes.map((c) => [c.task_kind, c.from, c.to, c.status])).toEqual([['code', 'dear', 'cheap', 'promoted']]);
  });
});
