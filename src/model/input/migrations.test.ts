import { describe, expect, it } from 'vitest';
import { CURRENT_VERSION, MIGRATIONS, toCurrentVersion } from './migrations.ts';

describe('document versions', () => {
  it('version 1 is current and has no migration to run', () => {
    expect(CURRENT_VERSION).toBe(1);
    expect(MIGRATIONS).toHaveLength(0);
    const doc = { version: 1, model: {} };
    const read = toCurrentVersion(doc, 1);
    expect(read).toEqual({ ok: true, document: doc, notes: [] });
  });

  it('an absent version reads as 1', () => {
    expect(toCurrentVersion({}, undefined).ok).toBe(true);
  });

  it.each([[2], [0], ['1'], [1.5], [null]])('version %j is refused with what is accepted', (version) => {
    const read = toCurrentVersion({}, version);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.message).toMatch(/^must be 1, got /);
  });
});
