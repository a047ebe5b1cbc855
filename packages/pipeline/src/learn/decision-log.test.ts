import { packFeatures, unpackFeatures } from '@svc/db';
import { extractFeatures, scalarFeatures } from '@svc/router';
import { describe, expect, it } from 'vitest';
import { request } from '../test/gateway-harness.js';

const asked = [
  request({}),
  request({ messages: [{ role: 'system', content: 'Answer in JSON.' }, { role: 'user', content: 'Prove that 2 + 2 = 4, then write a Python function that adds two numbers?' }] }),
];

describe("the decision log's features", () => {
  it("are stored packed for every mode's features the router builds today, and read back as the record", () => {
    for (const text of [false, true]) {
      for (const body of asked) {
        const record = scalarFeatures(extractFeatures(body, text));
        const packed = packFeatures(record);
        // A string: the router builds its record by the names the store packs by (SCALAR_FEATURE_NAMES).
        expect(typeof packed).toBe('string');
        expect(unpackFeatures(packed)).toEqual(JSON.parse(JSON.stringify(record)));
      }
    }
  });
});
