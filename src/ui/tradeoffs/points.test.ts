import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sweepDocument } from '../../model/sweep/index.ts';
import { GiB } from '../../model/input/index.ts';
import { bestGoodput, tradeoffPoints, unfitRuns, valueLabel, type TradeoffPoint } from './points.ts';
import { curveSummary, rangeText } from './TradeoffChart.tsx';
import { formatDays, formatUsd } from '../format.ts';
import { tightFromShare } from '../uncertainty/memoryVerdict.ts';

const LLAMA_70B = JSON.parse(readFileSync(new URL('../../../examples/llama3-70b-256-h100.json', import.meta.url), 'utf8')) as unknown;

describe('trade-off points', () => {
  it("carry the row's own figures: device-used memory against capacity, tokens/s, dollars, days, the current value", () => {
    const result = sweepDocument(LLAMA_70B, 'tp', { timeline: false });
    const points = tradeoffPoints(result);
    expect(points.map((p) => p.index)).toEqual([0, 1, 2, 3]);
    const tp8 = points[3]!;
    const row = result.rows[3]!.output;
    expect(tp8).toMatchObject({
      value: 8,
      valueLabel: '8',
      current: true,
      fits: true,
      tokensPerSecond: row.throughput!.tokensPerSecond,
      usd: row.cost!.usd,
      days: row.time!.days,
    });
    expect(tp8.memoryGiB).toBe(row.memory.deviceUsed / GiB);
    expect(tp8.capacityGiB).toBe(80);
    expect(points[0]?.fits).toBe(false);
  });

  it('groups neighbouring points that do not fit into one band each', () => {
    const at = (fits: readonly boolean[]) => fits.map((f, index) => ({ index, fits: f }) as TradeoffPoint);
    expect(unfitRuns(at([false, false, true, false, true, false, false]))).toEqual([
      [0, 1],
      [3, 3],
      [5, 6],
    ]);
    expect(unfitRuns(at([true, true]))).toEqual([]);
    expect(unfitRuns(at([]))).toEqual([]);
  });

  it('names values as the page does', () => {
    expect(valueLabel('zero', 2)).toBe('ZeRO 2');
    expect(valueLabel('checkpointInterval', 90)).toBe('1.5 h');
    expect(valueLabel('seqLen', 8192)).toBe('8,192');
    expect(valueLabel('precision', 'fp8')).toBe('fp8');
  });

  it('the checkpoint curve peaks at the optimum of the engine', () => {
    const result = sweepDocument(LLAMA_70B, 'checkpointInterval', { timeline: false });
    expect(bestGoodput(tradeoffPoints(result))?.value).toBe(result.current);
  });

  it("carry the row's simulated end: p10, p50 and p90 of days and dollars (reliability.completion)", () => {
    const result = sweepDocument(LLAMA_70B, 'gpus', { timeline: false });
    const points = tradeoffPoints(result);
    result.rows.forEach((row, i) => {
      const c = row.output.reliability?.completion;
      expect(points[i]?.range).toEqual({ days: [c?.days.p10, c?.days.p50, c?.days.p90], usd: [c?.usd.p10, c?.usd.p50, c?.usd.p90] });
    });
    const current = points.find((p) => p.current)!;
    expect(rangeText(current, 'days')).toBe(
      `${formatDays(current.range!.days[1])} (p10 ${formatDays(current.range!.days[0])}, p90 ${formatDays(current.range!.days[2])})`,
    );
    expect(curveSummary('GPUs', points, 'days', true)).toContain(
      `At ${current.valueLabel} the simulated runs end in ${rangeText(current, 'days')}.`,
    );
    expect(rangeText({ ...current, range: null }, 'usd')).toBe(formatUsd(current.usd));
  });

  it("the chart's text alternative says how many values fit and which is fastest and cheapest", () => {
    const points = tradeoffPoints(sweepDocument(LLAMA_70B, 'tp', { timeline: false }));
    // TP 1 and 2 do not fit (259.7 and 132.3 GiB reserved); of TP 4 and 8, TP 4 is faster (238.8k against 211.7k tokens/s) and cheaper.
    expect(curveSummary('Tensor parallel (TP)', points, 'usd')).toBe(
      'Tensor parallel (TP) from 1 to 8: 2 of 4 values fit. Fastest that fits: 4 at 239k tokens/s. Cheapest that fits: 4 at $1.1M.',
    );
  });
});

describe("the trade-off table's verdict", () => {
  it("is the strip's: 74.5 of 80 GiB is tight (above the one threshold), 50 of 80 safe, 81 of 80 will not fit", () => {
    const result = sweepDocument(LLAMA_70B, 'tp', { timeline: false });
    const row = result.rows[3]!;
    const at = (reservedGiB: number) => ({
      ...row,
      output: {
        ...row.output,
        memory: { ...row.output.memory, reserved: reservedGiB * GiB, deviceUsed: reservedGiB * GiB, fits: reservedGiB <= 80 },
      },
    });
    const points = tradeoffPoints({ ...result, rows: [at(74.5), at(50), at(81)] });
    // 74.5 / 80 = 93 %, above the tight threshold (at most 90 %, lower where the band says so).
    expect(tightFromShare()).toBeLessThan(74.5 / 80);
    expect(points.map((p) => p.verdict)).toEqual(['tight', 'safe', 'will-not-fit']);
    expect(points[0]?.fits).toBe(true);
  });
});
