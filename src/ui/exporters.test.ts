import { describe, it, expect } from 'vitest';
import { CSV_COLUMNS, fileBaseName, toCsv, toJson, toMarkdown } from './exporters.ts';
import { partialOutput, sampleOutput } from './testOutputs.ts';
import { estimate, invalidOutput } from '../model/estimate.ts';
import { DEFAULT_DOCUMENT } from '../state/defaults.ts';
import { MEMORY_PARTS, TIME_PARTS } from '../model/input/index.ts';
import { setAt } from '../state/doc.ts';
import { formatDays, formatUsd } from './format.ts';

const DOCUMENT = { version: 1, model: { name: 'GPT-3 175B' }, parallel: { tp: 8, pp: 8, dp: 24, zero: 1, schedule: '1f1b' } };

/** A minimal RFC 4180 reader, so the test does not trust the writer's own splitting. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('toCsv', () => {
  const rows = parseCsv(toCsv(sampleOutput()));
  const [header, ...body] = rows;

  it('has the six columns on every row', () => {
    expect(header).toEqual([...CSV_COLUMNS]);
    for (const row of body) expect(row).toHaveLength(CSV_COLUMNS.length);
  });

  it('writes raw finite values in base units', () => {
    const mfu = body.find((r) => r[0] === 'figure' && r[2] === 'mfu');
    expect(mfu?.[3]).toBe('0.4132');
    expect(mfu?.[4]).toBe('fraction');
    for (const row of body) if (row[3] !== '') expect(Number.isFinite(Number(row[3]))).toBe(true);
  });

  it('lists every stage × (memory part + total): 8 stages × 6 rows, stage 0 total 92 GiB', () => {
    const stageRows = body.filter((r) => r[0] === 'stage-memory');
    expect(stageRows).toHaveLength(8 * (MEMORY_PARTS.length + 1));
    const stage0Total = stageRows.find((r) => r[1] === '0' && r[2] === 'total');
    expect(Number(stage0Total?.[3])).toBe(92 * 2 ** 30);
    expect(body.filter((r) => r[0] === 'step-time')).toHaveLength(TIME_PARTS.length);
  });

  it('opens with the model summary: total and active parameters, FLOPs per token (interchange output `model`)', () => {
    const model = body.filter((r) => r[0] === 'model');
    expect(model.map((r) => [r[2], r[3], r[4]])).toEqual([
      ['parameters', '70553706496', 'parameters'],
      ['activeParameters', '70553706496', 'parameters'],
      ['flopsPerToken', '430000000000', 'FLOP'],
    ]);
    expect(body[0]?.[0]).toBe('model');
    expect(parseCsv(toCsv(invalidOutput(['x'], []))).some((r) => r[0] === 'model')).toBe(false);
  });

  it('leaves the value empty, not NaN, when a figure is missing, and quotes commas', () => {
    const partial = parseCsv(toCsv(partialOutput()));
    const step = partial.find((r) => r[2] === 'step-time');
    expect(step?.[3]).toBe('');
    expect(step?.[5]).toBe('— (time model not computed)');
    const warning = partial.find((r) => r[0] === 'warning');
    expect(warning?.[5]).toBe('throughput, time, cost and reliability are not computed yet');
    expect(toCsv(partialOutput())).not.toMatch(/NaN|Infinity/);
  });
});

describe('toMarkdown', () => {
  const markdown = toMarkdown(DOCUMENT, sampleOutput());
  const lines = markdown.split('\n');

  it('has a table with a header row and an alignment row', () => {
    const headerIndex = lines.indexOf('| Figure | Value | How it is computed |');
    expect(headerIndex).toBeGreaterThan(0);
    expect(lines[headerIndex + 1]).toBe('|:---|---:|:---|');
    expect(lines[headerIndex + 2]).toMatch(/^\| Memory per GPU \| 103 GiB of 80 GiB — out of memory \|/);
  });

  it('names the model and the layout, and has a row per stage', () => {
    expect(lines[0]).toBe('## Training plan: GPT-3 175B');
    expect(markdown).toContain('Parallel layout: tp 8 · pp 8 · dp 24 · ZeRO 1 · 1f1b');
    expect(lines.filter((l) => /^\| \d+ \|/.test(l))).toHaveLength(8);
    expect(markdown).toContain('| MFU | 41.3 % |');
    expect(markdown).toContain('Model: 70.6 B parameters · 70.6 B active · 4.3e11 FLOPs/token');
  });

  it('says why figures are missing and prints no NaN', () => {
    const partial = toMarkdown({}, partialOutput());
    expect(partial).toContain('| Step time | — (time model not computed) |');
    expect(partial).toContain('## Training plan: unnamed model');
    expect(partial).not.toMatch(/NaN|Infinity/);
    const invalid = toMarkdown(null, invalidOutput(['parallel.tp: 3 does not divide model.heads=32'], []));
    expect(invalid).toContain('- parallel.tp: 3 does not divide model.heads=32');
  });
});

describe('toMarkdown says what the days and dollars assume, and the ranges', () => {
  it("names the GPU type and count, the price and the token budget, from the document with the engine's defaults", () => {
    const markdown = toMarkdown(DEFAULT_DOCUMENT, estimate(DEFAULT_DOCUMENT));
    expect(markdown).toContain('Cluster: 64 × NVIDIA H100 SXM5 80GB');
    expect(markdown).toContain('Budget: 1 trillion tokens at $2.50 per GPU-hour');
    expect(markdown).toContain('### Ranges (90 % of published runs measured within them)');
    expect(markdown).toMatch(/\| Throughput \| [\d.]+k tokens\/s \| [\d.]+k tokens\/s \|/);
    expect(markdown).toMatch(/\| Training time \| [\d.]+ days \| [\d.]+ days \|/);
  });

  it('leaves both out when the document cannot be read or the estimate has no figures', () => {
    const invalid = toMarkdown(null, invalidOutput(['model: is required'], []));
    expect(invalid).not.toContain('Cluster:');
    expect(invalid).not.toContain('### Ranges');
  });
});

describe('toJson', () => {
  it('round-trips input and output, with non-finite numbers as null', () => {
    const base = sampleOutput();
    const output = { ...base, flops: { modelPerStep: Number.POSITIVE_INFINITY, hardwarePerStep: 1 } };
    const parsed = JSON.parse(toJson(DOCUMENT, output)) as { input: unknown; output: { flops: { modelPerStep: unknown } } };
    expect(parsed.input).toEqual(DOCUMENT);
    expect(parsed.output.flops.modelPerStep).toBeNull();
    expect((JSON.parse(toJson(DOCUMENT, base)) as { output: { model: unknown } }).output.model).toEqual(base.model);
  });
});

describe('fileBaseName', () => {
  it('slugs the model name', () => {
    expect(fileBaseName(DOCUMENT)).toBe('gpt-3-175b-plan');
    expect(fileBaseName({ model: { name: '  ' } })).toBe('llm-train-plan');
    expect(fileBaseName(42)).toBe('llm-train-plan');
  });
});

describe("a fine-tune's frozen weights in the exports", () => {
  it('the stage table and the CSV list them, and the parts add up to the total', () => {
    const base = sampleOutput();
    const stage = { ...base.memory.perGpu, frozen: 10 * 2 ** 30, total: base.memory.perGpu.total + 10 * 2 ** 30 };
    const output = { ...base, memory: { ...base.memory, perGpu: stage, stages: [stage] } };
    expect(toMarkdown(DOCUMENT, output)).toContain('| Stage | frozen | parameters |');
    const frozenRow = parseCsv(toCsv(output)).find((r) => r[0] === 'stage-memory' && r[2] === 'frozen');
    expect(frozenRow?.[3]).toBe(String(10 * 2 ** 30));
    expect(toMarkdown(DOCUMENT, base)).not.toContain('frozen');
  });
});

describe("the run's end over the simulated runs in the exports (reliability.completion)", () => {
  // A spot run dated from 2027-01-04: the engine's own figures, copied into the exports.
  const document = setAt(
    setAt(setAt(DEFAULT_DOCUMENT, ['cost', 'capacity'], 'spot'), ['cost', 'preemptionsPerNodeDay'], 0.5),
    ['cost', 'startDate'],
    '2027-01-04',
  );
  const output = estimate(document);
  const c = output.reliability?.completion;

  it('Markdown: p10/p50/p90 days, dollars and dates beside the on-demand answer, and each quarter of the budget', () => {
    if (!c?.onDemand || !c.endDate) throw new Error('no spot completion');
    const markdown = toMarkdown(document, output);
    expect(markdown).toContain('### When the run ends (spot, and the same run on demand)');
    expect(markdown).toContain(
      `| p50 | ${formatDays(c.days.p50)} | ${formatUsd(c.usd.p50)} | ${c.endDate.p50} | ${formatDays(c.onDemand.days.p50)} | ` +
        `${formatUsd(c.onDemand.usd.p50)} |`,
    );
    expect(markdown).toContain(`| 25 % of the tokens | ${c.milestones?.[0]?.date?.p50} |`);
    expect(markdown).toContain(c.basis);
  });

  it('CSV: one row per percentile in base units, the on-demand ones, the dates and the quarters', () => {
    if (!c?.onDemand || !c.endDate) throw new Error('no spot completion');
    const body = parseCsv(toCsv(output)).filter((r) => r[0] === 'completion');
    const value = (name: string) => body.find((r) => r[2] === name);
    expect(value('days-p90')?.[3]).toBe(String(c.days.p90));
    expect(value('usd-p10')?.[4]).toBe('USD');
    expect(value('on-demand-days-p50')?.[3]).toBe(String(c.onDemand.days.p50));
    expect(value('end-date-p50')?.[5]).toBe(c.endDate.p50);
    expect(value('budget-50pct-days-p50')?.[5]).toBe(c.milestones?.[1]?.date?.p50);
  });

  it('neither says anything of a run without a simulation', () => {
    expect(toMarkdown(DOCUMENT, sampleOutput())).not.toContain('When the run ends');
    expect(parseCsv(toCsv(sampleOutput())).some((r) => r[0] === 'completion')).toBe(false);
  });
});
