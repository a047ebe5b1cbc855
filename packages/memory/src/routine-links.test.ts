import { describe, expect, it } from 'vitest';
import { pointOf } from './memory-points.js';
import { habitTime, oneHabitOfItsTime } from './routine-links.js';
import { fact, near, stored } from './test/stored-facts.js';

const written = new Set<string>();
const reading = stored('1', 'Before bed I always read a novel.');
const climbing = stored('2', 'I go climbing every weekend.');
const sister = stored('3', 'My sister lives in Oslo.');

describe('habitTime', () => {
  it('reads the one time of day a statement holds a habit at', () => {
    expect(habitTime('I end my days with a hot bath now.')).toBe('evening');
    expect(habitTime('Before bed I always read a novel.')).toBe('evening');
    expect(habitTime('My morning routine is a run.')).toBe('morning');
    expect(habitTime('I go climbing every weekend.')).toBe('weekend');
    expect(habitTime('I like tea.')).toBeUndefined();
    expect(habitTime('Every morning and every evening I stretch.')).toBeUndefined();
  });
});

describe('oneHabitOfItsTime', () => {
  it('links a change to the one stored habit held at the same time of day, whatever the wording', () => {
    expect(oneHabitOfItsTime(fact('I end my days with meditation now.'), near([climbing, 0.4], [reading, 0.2], [sister, 0.1]), { written })?.id).toBe('1');
    expect(oneHabitOfItsTime(fact('I swapped my bedtime habit for yoga.'), near([reading, 0.3], [climbing, 0.3]), { written })?.id).toBe('1');
    expect(oneHabitOfItsTime(fact('These days I go sailing every weekend.'), near([reading, 0.3], [climbing, 0.3]), { written })?.id).toBe('2');
  });

  it('links nothing without a change, at another time, or when two habits are held at that time', () => {
    expect(oneHabitOfItsTime(fact('I meditate every evening.'), near([reading, 0.3]), { written })).toBeUndefined();
    expect(oneHabitOfItsTime(fact('My morning routine is a run now.'), near([reading, 0.3]), { written })).toBeUndefined();
    const walk = stored('4', 'I walk the dog every evening.');
    expect(oneHabitOfItsTime(fact('I end my days with meditation now.'), near([reading, 0.3], [walk, 0.3]), { written })).toBeUndefined();
  });

  it('links nothing for a number, an event or plan, another holder, or a fact the encoder places near another attribute', () => {
    expect(oneHabitOfItsTime(fact('I now go to bed at 11 pm.'), near([reading, 0.3]), { written })).toBeUndefined();
    expect(oneHabitOfItsTime(fact("I'm planning to do yoga every evening next month."), near([reading, 0.3]), { written })).toBeUndefined();
    expect(oneHabitOfItsTime(fact('My son ends his days with reading now.'), near([reading, 0.3]), { written })).toBeUndefined();
    const commute = { ...pointOf(stored('5', 'Every evening I cycle home from work.'), new Float32Array([1]), 86_400_000, 'commute'), score: 0.3 };
    expect(oneHabitOfItsTime(fact('I end my days with meditation now.'), [commute], { written })).toBeUndefined();
  });
});
