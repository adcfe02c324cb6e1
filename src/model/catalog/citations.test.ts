import { describe, expect, it } from 'vitest';
import { expandCitation } from './citations.ts';

describe('expandCitation', () => {
  it("expands a leading {NAME} to the file's citation and leaves the rest of the source as written", () => {
    expect(expandCitation('{NARAYANAN}, section 5.1', { NARAYANAN: 'Narayanan et al. 2021' })).toBe('Narayanan et al. 2021, section 5.1');
    expect(expandCitation('{UNKNOWN}, p. 2', { NARAYANAN: 'x' })).toBe('{UNKNOWN}, p. 2');
    expect(expandCitation('Dao et al. 2022', { NARAYANAN: 'x' })).toBe('Dao et al. 2022');
  });
});
