import { describe, expect, it } from 'vitest';
import type { PairReader } from './pair-reader.js';
import { ROLE_FEATURE_NAMES, type RoleLexicon, roleFeatures } from './role-features.js';
import { atThreshold, isRoleReader, parseRoleModel, ROLE_MODEL_INPUTS, type RoleModelFile, roleReader } from './role-reader.js';
import { shippedPairReader, shippedRoleModel } from './role-model-data.js';
import type { TokenFeatures } from './token-features.js';
import v3 from './minilm-role-v3.json' with { type: 'json' };

const VOCAB = new Map<string, number>();
const idOf = (word: string) => {
  if (!VOCAB.has(word)) VOCAB.set(word, 1000 + VOCAB.size);
  return VOCAB.get(word)!;
};
const lexicon: RoleLexicon = { relations: new Set(['from', 'to', 'by', 'of'].map(idOf)), other: new Set(['the', 'a', 'was'].map(idOf)) };

/** Features of a text for the tests: a word's id, and a context feature mixing the word with its left neighbour (so a moved word reads differently). */
function features(text: string, d = 16): TokenFeatures {
  const words = text.split(' ');
  const ids = Int32Array.from(words, idOf);
  const values = new Float32Array(words.length * d);
  ids.forEach((id, t) => {
    values[t * d + (id % d)] = 1;
    if (t > 0) values[t * d + ((ids[t - 1]! * 7) % d)] = (values[t * d + ((ids[t - 1]! * 7) % d)] ?? 0) + 0.5;
  });
  return { count: words.length, dimensions: d, ids, values };
}

const named = (values: number[]) => Object.fromEntries(ROLE_FEATURE_NAMES.map((name, k) => [name, values[k]!]));

describe('role features', () => {
  it('see nothing moved between a text and itself', () => {
    const f = named(roleFeatures(features('flights from boston to denver'), features('flights from boston to denver'), 1, 1, lexicon));
    expect(f).toMatchObject({ contentMatched: 1, discordance: 0, bigramsKept: 1, relationContextChanged: 0, contentNeighbourChanged: 0, lcs: 1, displacementMax: 0, swapsAcrossRelation: 0 });
    expect(f['contextMean']).toBeCloseTo(1, 5);
  });

  it('see two content words that swapped sides around a relation word', () => {
    const f = named(roleFeatures(features('flights from boston to denver'), features('flights from denver to boston'), 0.97, 1, lexicon));
    expect(f['contentMatched']).toBe(1);
    expect(f['discordance']).toBeCloseTo(1 / 3, 5);
    expect(f['swapsAcrossRelation']).toBeCloseTo(Math.log1p(1), 5);
    expect(f['relationContextChanged']).toBeGreaterThan(0);
    expect(f['lcs']).toBeLessThan(1);
  });

  it('tell a moved phrase (order kept inside it) from a role swap', () => {
    const moved = named(roleFeatures(features('the city was founded by romans'), features('by romans the city was founded'), 0.95, 1, lexicon));
    const swapped = named(roleFeatures(features('the city was founded by romans'), features('the romans was founded by city'), 0.95, 1, lexicon));
    expect(moved['relationContextChanged']).toBe(0);
    expect(swapped['relationContextChanged']).toBeGreaterThan(0);
    expect(moved['bigramsKept']).toBeGreaterThan(swapped['bigramsKept']!);
  });
});

/** A role model file with one hidden unit that passes the swaps-across-relation feature through, refusing at >= 0.5 of it (after standardisation). */
function file(overrides: Partial<RoleModelFile> = {}): RoleModelFile {
  const width = ROLE_MODEL_INPUTS.length;
  const swaps = ROLE_MODEL_INPUTS.indexOf('swapsAcrossRelation');
  return {
    id: 'role-test',
    base: 'base-test',
    about: 'test',
    threshold: 0.5,
    baseThreshold: 0,
    minOverlap: 0.75,
    inputs: [...ROLE_MODEL_INPUTS],
    lexicon: { relations: [...lexicon.relations], other: [...lexicon.other] },
    mean: new Array(width).fill(0),
    scale: new Array(width).fill(1),
    hidden: { w: Array.from({ length: width }, (_, k) => (k === swaps ? 10 : 0)), b: [0] },
    out: { w: [-1], b: [2] },
    ...overrides,
  };
}

const base: PairReader = { id: 'base-test', dimensions: 16, threshold: 0.75, features: async (text) => features(text), score: () => 0.9 };

describe('role reader', () => {
  it('refuses a role swap the base model lets through, serves the same words in the same roles', () => {
    const reader = roleReader(base, parseRoleModel(file()));
    expect(reader.id).toBe('base-test');
    expect(reader.threshold).toBe(0.5);
    expect(reader.score(features('flights from denver to boston'), features('flights from boston to denver'), 0.97)).toBeLessThan(0.5);
    expect(reader.score(features('flights from boston to denver'), features('flights from boston to denver'), 1)).toBeGreaterThan(0.5);
  });

  it('refuses what the base model scores under its bar, whatever the role model says', () => {
    const reader = roleReader({ ...base, score: () => 0.2 }, parseRoleModel(file({ baseThreshold: 0.5 })));
    expect(reader.score(features('flights from boston to denver'), features('flights from boston to denver'), 1)).toBe(0);
  });

  it('has no objection to texts sharing fewer word pieces than its floor', () => {
    const reader = roleReader(base, parseRoleModel(file({ minOverlap: 0.99 })));
    expect(reader.score(features('cheap flights from denver to boston'), features('flights from boston to denver'), 0.9)).toBe(1);
  });

  it('refuses a file for another base model, with other inputs or wrong sizes', () => {
    expect(() => roleReader({ ...base, id: 'other' }, parseRoleModel(file()))).toThrow(/reads pair model base-test/);
    expect(() => parseRoleModel(file({ inputs: [...ROLE_MODEL_INPUTS.slice(1), 'nope'] }))).toThrow(/inputs/);
    expect(() => parseRoleModel(file({ inputs: ['cosine'] }))).toThrow(/sizes/);
    expect(() => parseRoleModel(file({ mean: [0] }))).toThrow(/sizes/);
    expect(() => parseRoleModel({ ...file(), extra: 1 })).toThrow();
  });
});

describe('the shipped role model', () => {
  it('parses, reads the shipped pair model, and wraps only it', () => {
    const model = shippedRoleModel();
    expect(model.base).toBe('minilm-pair-v1');
    expect(model.threshold).toBeGreaterThan(0);
    expect(model.threshold).toBeLessThan(1);
    expect(shippedPairReader(base)).toBe(base);
    expect(shippedPairReader(undefined)).toBeUndefined();
    expect(shippedPairReader({ ...base, id: 'minilm-pair-v1' })?.threshold).toBe(model.threshold);
  });
});

describe('atThreshold', () => {
  it('copies a reader with another threshold, a role reader staying one', () => {
    const role = roleReader(base, parseRoleModel(file()));
    const copy = atThreshold(role, 0.9);
    expect(copy.threshold).toBe(0.9);
    expect(isRoleReader(copy)).toBe(true);
    expect(shippedPairReader(copy)).toBe(copy);
    expect(isRoleReader(atThreshold(base, 0.9))).toBe(false);
    expect(copy.score(features('flights from boston to denver'), features('flights from boston to denver'), 1)).toBe(role.score(features('flights from boston to denver'), features('flights from boston to denver'), 1));
  });
});

describe('the base model', () => {
  it('is scored only when the role model reads it or uses it as a bar', () => {
    let calls = 0;
    const counting: PairReader = {
      ...base,
      score: () => {
        calls++;
        return 0.9;
      },
    };
    const same = [features('flights from boston to denver'), features('flights from boston to denver'), 1] as const;
    const width = ROLE_MODEL_INPUTS.length - 1;
    const withoutGrid = file({ inputs: ROLE_MODEL_INPUTS.slice(1), mean: new Array(width).fill(0), scale: new Array(width).fill(1), hidden: { w: new Array(width).fill(0), b: [0] } });
    roleReader(counting, parseRoleModel(withoutGrid)).score(...same);
    expect(calls).toBe(0);
    roleReader(counting, parseRoleModel({ ...withoutGrid, baseThreshold: 0.5 })).score(...same);
    expect(calls).toBe(1);
    roleReader(counting, parseRoleModel(file())).score(...same);
    expect(calls).toBe(2);
  });
});

describe('the replaced-word readers', () => {
  // Features of 16 pair-model numbers then 2 context numbers; the word table maps every id to one direction, so any replaced word reads as a synonym.
  const withContext = (text: string): TokenFeatures => {
    const f = features(text);
    const values = new Float32Array(f.count * 18);
    for (let t = 0; t < f.count; t++) values.set([...f.values.subarray(t * 16, (t + 1) * 16), 1, 0], t * 18);
    return { ...f, dimensions: 18, values };
  };
  const context = { from: 16, table: () => Float32Array.of(1, 0) };
  const replacedMin = ROLE_MODEL_INPUTS.length; // the first of READER_INPUTS
  const readers = () => {
    const inputs = [...ROLE_MODEL_INPUTS, 'replacedMinSimilarity', 'rawContextMin'];
    const width = inputs.length;
    // Refuses unless the replaced words read as synonyms (replacedMinSimilarity 1).
    return file({ inputs, mean: new Array(width).fill(0), scale: new Array(width).fill(1), hidden: { w: Array.from({ length: width }, (_, k) => (k === replacedMin ? 10 : 0)), b: [-5] }, out: { w: [1], b: [-2] } });
  };

  it('are computed from the context columns and the word table the base offers', () => {
    const reader = roleReader({ ...base, dimensions: 18, context }, parseRoleModel(readers()));
    expect(reader.context).toBe(context);
    const score = reader.score(withContext('flights from boston to denver'), withContext('flights from boston to denver'), 1);
    expect(score).toBeGreaterThan(0.9);
    const roleOnly = roleReader({ ...base, dimensions: 18, context }, parseRoleModel(file()));
    // The role features read the pair model's own 16 numbers only: the same as without the context columns.
    expect(roleOnly.score(withContext('flights from denver to boston'), withContext('flights from boston to denver'), 0.97)).toBeCloseTo(
      roleReader(base, parseRoleModel(file())).score(features('flights from denver to boston'), features('flights from boston to denver'), 0.97),
      6,
    );
  });

  it('are refused over a base that offers no context', () => {
    expect(() => roleReader(base, parseRoleModel(readers()))).toThrow(/offers no context/);
  });
});

describe('a role model file that asks for another reading', () => {
  it('is refused: no reader reads a pair in both orders any more (role model v4 was not shipped), so such a file would be misread', () => {
    expect(() => parseRoleModel({ ...file(), orders: 'both' })).toThrow(/orders/);
    expect(() => parseRoleModel(file())).not.toThrow();
  });
});

describe('role model v3 (trained on the fixed projection, not yet shipped)', () => {
  it('parses, reads the replaced-word readers over the features of minilm-pair-v2, and is refused over a base without them', () => {
    const model = parseRoleModel(v3);
    expect([model.id, model.base, model.threshold]).toEqual(['minilm-role-v3', 'minilm-pair-v2', 0.9]);
    expect(model.inputs.filter((at) => at >= ROLE_MODEL_INPUTS.length)).toHaveLength(10);
    expect(() => roleReader({ ...base, id: 'minilm-pair-v2' }, model)).toThrow(/offers no context/);
    const reader = shippedPairReader({ ...base, id: 'minilm-pair-v2', dimensions: 18, context: { from: 16, table: () => Float32Array.of(1, 0) } });
    expect(reader && isRoleReader(reader) ? reader.threshold : undefined).toBe(0.9);
  });
});
