import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { readValidationCases, validateCase } from '../model/validation/index.ts';
import { engineApi } from './api.ts';

const file = JSON.parse(readFileSync(new URL('../../validation/published-runs.json', import.meta.url), 'utf8')) as unknown;
const cases = readValidationCases(file);

describe('engineApi.validate', () => {
  it('returns the requested batch with the same rows as `npm run validate`, and the total', async () => {
    const batch = await engineApi.validate(10, 3);
    expect(batch.total).toBe(cases.length);
    expect(batch.cases.map((c) => c.id)).toEqual(cases.slice(10, 13).map((c) => c.id));
    batch.cases.forEach((c, i) => expect(c.rows).toEqual(validateCase(cases[10 + i] as (typeof cases)[number])));
  });

  it('returns an empty batch past the end', async () => {
    expect((await engineApi.validate(cases.length, 20)).cases).toEqual([]);
  });
});
