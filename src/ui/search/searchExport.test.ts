import { describe, it, expect } from 'vitest';
import { searchDocument } from '../../model/search/index.ts';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { searchToCsv, searchToMarkdown, SEARCH_CSV_HEADER } from './searchExport.ts';
import { searchDocumentOf } from './searchRequest.ts';
import { layoutText, searchRows } from './searchTable.ts';

describe('exporting the layouts the search found', () => {
  // Two layouts of the default run with TP 8 × PP 4 held: the search varies the rest.
  const rows = searchRows(searchDocument(searchDocumentOf(DEFAULT_DOCUMENT), { topK: 2, fixed: { tp: 8, pp: 4 } }).results);

  it('CSV: a header, then one row per layout in rank order, raw values in the units of the headers', () => {
    const [header, first, ...rest] = searchToCsv(rows).split('\r\n');
    expect(header).toBe(SEARCH_CSV_HEADER.join(','));
    expect(rest.filter((l) => l !== '')).toHaveLength(rows.length - 1);
    const cells = first?.split(',') ?? [];
    const at = (name: (typeof SEARCH_CSV_HEADER)[number]) => cells[SEARCH_CSV_HEADER.indexOf(name)];
    const best = rows[0]!;
    expect(at('Rank')).toBe('1');
    expect(at('GPU type')).toBe('NVIDIA H100 SXM5 80GB');
    expect(at('GPUs')).toBe('64');
    expect([at('TP'), at('PP')]).toEqual(['8', '4']);
    expect(Number(at('Memory per GPU (bytes)'))).toBe(best.memoryBytes);
    expect(Number(at('GPU memory capacity (bytes)'))).toBe(80 * 2 ** 30);
    expect(Number(at('Memory share of capacity (fraction)'))).toBeCloseTo(best.memoryBytes / (80 * 2 ** 30), 12);
    expect(Number(at('Cost (USD)'))).toBe(best.usd);
    expect(Number(at('Training time (days)'))).toBe(best.days);
  });

  it("Markdown: the table as the page shows it, with each GPU's capacity beside the memory", () => {
    const lines = searchToMarkdown(rows).split('\n');
    expect(lines[0]).toBe('## Layouts found');
    expect(lines[2]).toMatch(/^In brackets: where 9 in 10 published runs/);
    expect(lines[4]).toBe('| Rank | GPU | GPUs | Memory per GPU / capacity | Tokens/s | MFU | Days | Cost | Layout |');
    // Each figure with its 90 % range (issue 35): "45.2 GiB (43.7 – 62.4 GiB) of 80 GiB (56.5 %), safe".
    expect(lines[6]).toMatch(
      /^\| 1 \| NVIDIA H100 SXM5 80GB \| 64 \| [\d.]+ GiB \([\d.]+ – [\d.]+ GiB\) of 80 GiB \([\d.]+ %\), (safe|tight|will not fit) \| /,
    );
    expect(lines[6]).toMatch(/ days \([\d.]+ – [\d.]+ days\) \| /);
    expect(lines[6]?.endsWith(`| ${layoutText(rows[0]!.result)} |`)).toBe(true);
  });
});
