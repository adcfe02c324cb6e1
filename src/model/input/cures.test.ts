import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { layoutCures, layoutProblem } from './cures.ts';
import { parseDocument } from './document.ts';
import { layoutOfRun, type Layout } from './layout.ts';

function defaults() {
  const parsed = parseDocument(DEFAULT_DOCUMENT);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}
const rules = defaults();
// Llama 3 70B, GBS 256, MBS 1; 96 GPUs at TP 8 × PP 4 leave DP 3, and 256 is not a multiple of 1 × 3.
const at96: Layout = { ...layoutOfRun(rules), dp: 3, gpus: 96 };

describe('cures for a layout that cannot run', () => {
  it('96 GPUs, GBS 256: GBS 255 or 258 (multiples of 3), PP 3 (DP 4) or PP 6 (DP 2) on the same GPUs, DP 2 or 4 with the GPU count', () => {
    expect(layoutProblem(rules, at96)).toMatch(/256 is not a multiple/);
    const labels = layoutCures(rules, at96).map((c) => c.label);
    // 256 / 3 = 85.3: 85 × 3 = 255 below, 86 × 3 = 258 above.
    expect(labels).toContain('GBS 255');
    expect(labels).toContain('GBS 258');
    // PP over divisors of 96 / 8 = 12, nearest to 4 first: 3 gives DP 4 (256 / 4 = 64), 6 gives DP 2; 2 gives DP 6, which 256 is not a multiple of.
    expect(labels).toContain('PP 3 (DP 4)');
    expect(labels).toContain('PP 6 (DP 2)');
    // DP nearest 3 among divisors of 256: 2 (TP 8 × PP 4 × 2 = 64 GPUs) and 4 (128 GPUs).
    expect(labels).toContain('DP 2 (64 GPUs)');
    expect(labels).toContain('DP 4 (128 GPUs)');
    // No micro-batch helps: 256 / 3 is not whole, so no MBS divides it.
    expect(labels.some((l) => l.startsWith('MBS'))).toBe(false);
  });

  it('every cure, applied, leaves a document the engine accepts', () => {
    for (const cure of layoutCures(rules, at96)) {
      let doc: Record<string, unknown> = JSON.parse(JSON.stringify(DEFAULT_DOCUMENT)) as Record<string, unknown>;
      doc = { ...doc, parallel: { ...(doc['parallel'] as object), dp: 3 }, cluster: { ...(doc['cluster'] as object), gpus: 96 } };
      for (const change of cure.changes) {
        const [section, key] = change.path as [string, string];
        doc = { ...doc, [section]: { ...(doc[section] as object), [key]: change.value } };
      }
      expect(parseDocument(doc).ok, cure.label).toBe(true);
    }
  });

  it('a typed GPU count the degrees do not make (7 for 8 × 4 × 2): back to 64, or DP 1 (32 GPUs) / DP 4 (128 GPUs)', () => {
    const typo: Layout = { ...layoutOfRun(rules), gpus: 7 };
    const labels = layoutCures(rules, typo).map((c) => c.label);
    expect(labels).toEqual(expect.arrayContaining(['64 GPUs, as laid out', 'DP 1 (32 GPUs)', 'DP 4 (128 GPUs)']));
    expect(labels.some((l) => l.startsWith('GBS'))).toBe(false); // a batch change alone leaves 7 ≠ 64
  });

  it('none for a layout that runs', () => {
    expect(layoutCures(rules, layoutOfRun(rules))).toEqual([]);
  });
});
