import { describe, expect, it } from 'vitest';
import { soakFigures } from './soak.js';

const samples = (mb: number[]) => mb.map((rssMb, i) => ({ sec: (i + 1) * 10, rssMb }));

describe('soak figures', () => {
  it('leaves the first minute out of a long soak and judges the range against 10% of the minimum', () => {
    const growing = samples([150, 400, 420, 430, 300, 310, 305, 312, 309, 315, 318, 320]);
    const f = soakFigures(growing);
    expect(f).toMatchObject({ from: 60, first: 310, last: 320, min: 305, max: 320, flat: true });
    expect(f?.range).toBeCloseTo(15 / 305);
    const leak = soakFigures(samples([300, 300, 300, 300, 300, 300, 310, 320, 330, 340, 350, 360]));
    expect(leak).toMatchObject({ flat: false, min: 300, max: 360 });
  });

  it('keeps every sample of a soak under two minutes, and has no figures without samples', () => {
    expect(soakFigures(samples([200, 230]))).toMatchObject({ from: 0, first: 200, last: 230, flat: false });
    expect(soakFigures([])).toBeUndefined();
  });
});
