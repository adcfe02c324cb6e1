import { describe, it, expect } from 'vitest';
import { estimate } from '../../model/estimate.ts';
import { GiB, type EstimateOutput } from '../../model/input/index.ts';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { setAt, type Doc } from '../../state/doc.ts';
import { NOT_AVAILABLE } from '../format.ts';
import { compareFigures, headroomVerdict, memoryShareOfCapacity } from './compareFigures.ts';
import { scenariosToCsv, scenariosToMarkdown } from './scenarioExport.ts';
import { memoryAgainstCapacity, scenarioTable, type ScenarioInput } from './scenarios.ts';

/** An estimate whose most loaded GPU holds `usedGiB` on the device (and allocates as much) of a `capacityGiB` GPU. */
function withMemory(output: EstimateOutput, usedGiB: number, capacityGiB: number): EstimateOutput {
  const m = output.memory;
  return {
    ...output,
    memory: {
      ...m,
      perGpu: { ...m.perGpu, total: usedGiB * GiB },
      reserved: usedGiB * GiB,
      deviceUsed: usedGiB * GiB,
      capacity: capacityGiB * GiB,
      fits: usedGiB <= capacityGiB,
    },
  };
}

const base = estimate(DEFAULT_DOCUMENT);
// The case: 66.6 GiB of a 186 GiB GPU (35.8 %) against 37.5 GiB of an 80 GiB one (46.9 %).
const big = withMemory(base, 66.6, 186);
const small = withMemory(base, 37.5, 80);

describe("memory headroom against each configuration's own capacity", () => {
  it('judges 66.6 GiB of 186 better than 37.5 GiB of 80: 35.8 % of capacity against 46.9 %', () => {
    expect(memoryShareOfCapacity(big)).toBeCloseTo(66.6 / 186, 12);
    expect(headroomVerdict(37.5 / 80, 66.6 / 186)).toBe('better');
    expect(headroomVerdict(66.6 / 186, 37.5 / 80)).toBe('worse');
    expect(headroomVerdict(0.5, 0.5)).toBe('same');
    expect(headroomVerdict(NaN, 0.5)).toBe('unavailable');
    for (const id of ['memory-total', 'memory-allocated', 'memory-reserved']) {
      const row = compareFigures(small, big).find((r) => r.id === id);
      // More bytes (Δ > 0), yet better: the share of the bigger GPU is smaller.
      expect(row?.delta ?? 0, id).toBeGreaterThan(0);
      expect(row?.verdict, id).toBe('better');
      expect(compareFigures(big, small).find((r) => r.id === id)?.verdict, id).toBe('worse');
    }
  });

  it('still calls more bytes on the same GPU worse', () => {
    expect(compareFigures(withMemory(base, 40, 80), withMemory(base, 50, 80)).find((r) => r.id === 'memory-total')?.verdict).toBe('worse');
  });
});

describe('the scenario table', () => {
  const h200 = setAt(DEFAULT_DOCUMENT, ['cluster', 'gpu'], 'h200');
  const pricier = setAt(setAt(DEFAULT_DOCUMENT, ['cost', 'usdPerGpuHour'], 5), ['training', 'tokens'], 2e12);
  const scenario = (name: string, document: Doc, current = false): ScenarioInput => ({
    name,
    document,
    output: estimate(document),
    errors: [],
    current,
  });
  const scenarios = [scenario('A', DEFAULT_DOCUMENT), scenario('H200', h200), scenario('Current', pricier, true)];
  const table = scenarioTable(scenarios);
  const row = (id: string) => table.fields.find((f) => f.id === id)?.cells.map((c) => c.text);

  it('says what each run assumes: model size, cluster, price, token budget, layout, micro-batch, schedule', () => {
    expect(table.names).toEqual(['A', 'H200', 'Current']);
    // Llama 3 70B: 70.6 B parameters, all active (dense); the summary is the engine's (output.model).
    expect(row('parameters')?.[0]).toBe('70.6 B / 70.6 B');
    expect(row('flops-per-token')?.[0]).toMatch(/^4\.\de11 FLOPs\/token$/);
    expect(table.csvRows[0]?.[table.csvHeader.indexOf('Parameters')]).toBe(base.model?.parameters);
    expect(row('cluster')).toEqual(['64 × NVIDIA H100 SXM5 80GB', '64 × NVIDIA H200 SXM 141GB', '64 × NVIDIA H100 SXM5 80GB']);
    expect(row('price')).toEqual(['$2.50', '$2.50', '$5.00']);
    expect(row('tokens')).toEqual(['1 trillion tokens', '1 trillion tokens', '2 trillion tokens']);
    // defaults.ts: TP 8 × PP 4 × DP 2, micro-batch 1, 1F1B.
    expect(row('layout')).toEqual(Array(3).fill('TP 8 · PP 4 · DP 2 · CP 1 · EP 1'));
    expect(row('micro-batch')).toEqual(['1', '1', '1']);
    expect(row('schedule')).toEqual(['1F1B', '1F1B', '1F1B']);
  });

  it('derives $ per million tokens and tokens per day from the budget: cost ÷ (tokens / 10⁶), tokens ÷ days', () => {
    const [a, , current] = table.csvRows;
    const column = (header: string) => table.csvHeader.indexOf(header);
    const usd = base.cost?.usd ?? NaN;
    const days = base.time?.days ?? NaN;
    expect(a?.[column('USD per million tokens')]).toBeCloseTo(usd / 1e6, 9);
    expect(a?.[column('Tokens per day')]).toBeCloseTo(1e12 / days, 0);
    // Twice the tokens at twice the price: twice the days, four times the dollars, so twice the dollars per token; the same tokens per day.
    expect(current?.[column('USD per million tokens')]).toBeCloseTo((2 * usd) / 1e6, 6);
    expect(current?.[column('Tokens per day')]).toBeCloseTo(1e12 / days, 0);
  });

  it("shows memory against each one's own capacity, and marks the bigger GPU's smaller share the best", () => {
    expect(memoryAgainstCapacity(big)).toBe('66.6 / 186 GiB (35.8 %)');
    const memory = table.fields.find((f) => f.id === 'memory');
    const used = base.memory.deviceUsed / GiB;
    expect(memory?.cells[0]?.text).toMatch(new RegExp(`^${used.toFixed(1)} / 80 GiB \\(\\d+(\\.\\d)? %\\), (safe|tight)$`));
    expect(memory?.cells[1]?.text).toMatch(/ \/ 141 GiB /);
    expect(memory?.cells.map((c) => c.best)).toEqual([false, true, false]);
    // The lowest cost wins its row; a row with no better direction marks nothing.
    expect(table.fields.find((f) => f.id === 'usd')?.cells.map((c) => c.best)).toEqual([false, true, false]);
    expect(table.fields.find((f) => f.id === 'layout')?.cells.some((c) => c.best)).toBe(false);
  });

  it("gives the ranges published runs measured around the predictions, memory's around what the device holds", () => {
    const low = table.csvHeader.indexOf('Memory range low (bytes)');
    const high = table.csvHeader.indexOf('Memory range high (bytes)');
    const values = table.csvRows[0] ?? [];
    expect(Number(values[low])).toBeLessThan(base.memory.deviceUsed);
    expect(Number(values[high])).toBeGreaterThan(base.memory.deviceUsed);
    expect(row('tokens-per-second-range')?.[0]).toMatch(/^[\d.]+k – [\d.]+k tokens\/s$/);
  });

  it('shows a pin still being computed, or one that cannot run, as not available: never NaN', () => {
    const t = scenarioTable([
      { name: 'Waiting', document: DEFAULT_DOCUMENT, output: null, errors: [], current: false },
      { name: 'Broken', document: { version: 1 }, output: null, errors: ['model: is required'], current: true },
    ]);
    for (const field of t.fields) for (const cell of field.cells) expect(cell.text).not.toMatch(/NaN|undefined/);
    expect(t.fields.find((f) => f.id === 'days')?.cells.map((c) => c.text)).toEqual([NOT_AVAILABLE, NOT_AVAILABLE]);
    expect(t.fields.find((f) => f.id === 'cluster')?.cells[0]?.text).toBe('64 × NVIDIA H100 SXM5 80GB');
    expect(scenariosToCsv(t)).not.toMatch(/NaN/);
  });
});

describe('scenario exports', () => {
  const pins = [
    { name: 'A | 2,048 "H100"', document: DEFAULT_DOCUMENT, output: base, errors: [], current: false },
    { name: 'Current', document: DEFAULT_DOCUMENT, output: base, errors: [], current: true },
  ];
  const table = scenarioTable(pins);

  it('Markdown: the scenarios side by side, a row per field, names escaped', () => {
    const md = scenariosToMarkdown(table);
    const lines = md.split('\n');
    expect(lines[0]).toBe('## Scenarios');
    expect(lines[2]).toBe('| Field | A \\| 2,048 "H100" | Current |');
    expect(lines[3]).toBe('|:---|:---|:---|');
    for (const label of [
      'Parameters (total / active)',
      'FLOPs per token',
      'Cluster (GPUs × GPU type)',
      'Price ($/GPU-h)',
      'Token budget',
      'Layout (TP · PP · DP · CP · EP)',
      'Micro-batch (sequences)',
      'Pipeline schedule',
      'Training time (days)',
      'Cost ($)',
      '$ per million tokens',
      'Tokens per day',
      'MFU',
      'Memory on the device / capacity',
      'Memory range (90 % of published runs)',
      'Throughput range (90 % of published runs)',
    ]) {
      expect(
        lines.some((l) => l.startsWith(`| ${label} |`)),
        label,
      ).toBe(true);
    }
    expect(md).toContain('| Price ($/GPU-h) | $2.50 | $2.50 |');
  });

  it('CSV: RFC 4180, one row per scenario, raw values in the units of the headers', () => {
    const csv = scenariosToCsv(table);
    expect(csv.endsWith('\r\n')).toBe(true);
    const [header, first, second] = csv.split('\r\n');
    expect(
      header?.startsWith(
        'Scenario,Model,Parameters,Active parameters,FLOPs per token (FLOP),GPU type,GPUs,Price (USD per GPU-hour),Token budget ' +
          '(tokens),TP,PP,DP,CP,EP,Micro-batch (sequences),Pipeline schedule,',
      ),
    ).toBe(true);
    expect(first).toMatch(
      /^"A \| 2,048 ""H100""",Llama 3 70B,[\d.e+]+,[\d.e+]+,[\d.e+]+,NVIDIA H100 SXM5 80GB,64,2\.5,1000000000000,8,4,2,1,1,1,1f1b,/,
    );
    expect(second?.startsWith('Current,')).toBe(true);
    expect(header?.split(',').length).toBe(table.csvHeader.length);
  });
});
