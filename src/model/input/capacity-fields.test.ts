// cost.capacity, spotUsdPerGpuHour, preemptionsPerNodeDay, restartMinutes, elastic, startDate
// (interchange "cost"): defaults, validation at the edge, never a throw.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PREEMPTIONS_PER_NODE_DAY, RESTART_SECONDS } from '../calibration.ts';
import { parseDocument } from './document.ts';

const BASE = {
  version: 1,
  model: { name: 't', layers: 2, hidden: 256, heads: 4, ffnHidden: 1024, vocab: 1000 },
  training: { seqLen: 128, globalBatch: 8, microBatch: 1 },
  parallel: { dp: 8 },
  cluster: { gpu: 'h100-sxm' },
};

function cost(fields: object) {
  const parsed = parseDocument({ ...BASE, cost: { usdPerGpuHour: 3, ...fields } });
  return parsed;
}

describe('capacity fields', () => {
  it('absent: on-demand, the spot price is the on-demand price, the cited defaults, no start date', () => {
    const parsed = cost({});
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    expect(parsed.warnings).toEqual([]);
    const c = parsed.config.cost;
    expect(c.capacity).toBe('on-demand');
    expect(c.spotUsdPerGpuHour).toBe(3);
    expect(c.restartMinutes).toBe(RESTART_SECONDS / 60);
    expect(c.restartMinutes).toBe(10);
    expect(c.elastic).toBe(false);
    expect(c.startDate).toBeNull();
    // The floor of AWS's top band: 20 % of nodes a month, −ln(0.8) / 30.44 = 0.22314 / 30.44 = 0.007331.
    expect(c.preemptionsPerNodeDay).toBe(DEFAULT_PREEMPTIONS_PER_NODE_DAY);
    expect(DEFAULT_PREEMPTIONS_PER_NODE_DAY).toBeCloseTo(0.007331, 6);
  });

  it('reads every field as given', () => {
    const parsed = cost({
      capacity: 'spot',
      spotUsdPerGpuHour: 1.2,
      preemptionsPerNodeDay: 0.05,
      restartMinutes: 15,
      elastic: true,
      startDate: '2027-01-04',
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    expect(parsed.warnings).toEqual([]);
    expect(parsed.config.cost).toMatchObject({
      capacity: 'spot',
      spotUsdPerGpuHour: 1.2,
      preemptionsPerNodeDay: 0.05,
      restartMinutes: 15,
      elastic: true,
      startDate: '2027-01-04',
    });
  });

  it('names the field of every bad value, and never throws', () => {
    const cases: [object, string][] = [
      [{ capacity: 'reserved' }, 'cost.capacity'],
      [{ spotUsdPerGpuHour: -1 }, 'cost.spotUsdPerGpuHour'],
      [{ preemptionsPerNodeDay: 'often' }, 'cost.preemptionsPerNodeDay'],
      [{ restartMinutes: -5 }, 'cost.restartMinutes'],
      [{ elastic: 'yes' }, 'cost.elastic'],
      [{ startDate: '04/01/2027' }, 'cost.startDate'],
      [{ startDate: '2027-02-30' }, 'cost.startDate'],
      [{ startDate: 20270104 }, 'cost.startDate'],
    ];
    for (const [fields, path] of cases) {
      const parsed = cost(fields);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.errors.some((e) => e.startsWith(path))).toBe(true);
    }
  });

  it('a leap day is a day; a preemption rate on on-demand capacity is read but warned about', () => {
    expect(cost({ startDate: '2028-02-29' }).ok).toBe(true);
    const parsed = cost({ preemptionsPerNodeDay: 0.1 });
    expect(parsed.ok).toBe(true);
    expect(parsed.warnings.some((w) => w.startsWith('cost.preemptionsPerNodeDay'))).toBe(true);
  });
});
