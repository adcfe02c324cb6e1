import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { test, expect, openPlanner, resultsSettled, setSlider } from './fixtures.ts';
import { readPinsHash } from '../src/state/url-codec.ts';

async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download]: [Download, void] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/** Every field of the scenario table (issue 36 item 5), by its row label in Markdown and its CSV headers. */
const MARKDOWN_ROWS = [
  'Model',
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
  'Throughput (tokens/s)',
  'Throughput range (90 % of published runs)',
];
const CSV_HEADERS = [
  'Scenario',
  'Model',
  'Parameters',
  'Active parameters',
  'FLOPs per token (FLOP)',
  'GPU type',
  'GPUs',
  'Price (USD per GPU-hour)',
  'Token budget (tokens)',
  'TP',
  'PP',
  'DP',
  'CP',
  'EP',
  'Micro-batch (sequences)',
  'Pipeline schedule',
  'Training time (days)',
  'Cost (USD)',
  'USD per million tokens',
  'Tokens per day',
  'MFU (fraction)',
  'Memory on the device (bytes)',
  'GPU memory capacity (bytes)',
  'Memory share of capacity (fraction)',
  'Memory range low (bytes)',
  'Memory range high (bytes)',
  'Throughput (tokens/s)',
  'Throughput range low (tokens/s)',
  'Throughput range high (tokens/s)',
];

test('four pinned scenarios survive a reload; their table exports to Markdown and CSV with every column', async ({ page }) => {
  await openPlanner(page);
  const pin = page.getByRole('button', { name: 'Pin for comparison' });
  await pin.click();
  await setSlider(page, /\(TP\)/, 4);
  await resultsSettled(page);
  await pin.click();
  await page.getByLabel('GPU', { exact: true }).selectOption('h200');
  await resultsSettled(page);
  await pin.click();
  await setSlider(page, /\(PP\)/, 2);
  await resultsSettled(page);
  await pin.click();
  await page.getByTestId('scenario-name-3').fill('H200, PP 2');
  await page.getByTestId('scenario-name-3').press('Enter');
  await expect(page.getByTestId('pin-count')).toHaveText(/^4 of up to 8 pinned/);
  const names = ['A', 'B', 'C', 'H200, PP 2'];
  // The link carries the four, with their names, before the reload.
  await expect
    .poll(async () => {
      const read = await readPinsHash(await page.evaluate(() => location.hash));
      return read.kind === 'pins' ? read.pins.map((p) => p.name) : [];
    })
    .toEqual(names);

  await page.reload();
  await resultsSettled(page);
  const table = page.getByTestId('scenario-table');
  for (const [i, name] of names.entries()) {
    await expect(page.getByTestId(`scenario-name-${i}`)).toHaveValue(name);
    // Each pin's own estimate arrives after the reload.
    await expect(table.getByTestId(`scenario-days-${i}`)).toHaveText(/\d days/);
  }
  await expect(table.getByTestId('scenario-cluster-0')).toHaveText('64 × NVIDIA H100 SXM5 80GB');
  await expect(table.getByTestId('scenario-layout-1')).toHaveText('TP 4 · PP 4 · DP 4 · CP 1 · EP 1');
  // Memory against each one's own capacity: the H200 pins out of 141 GiB.
  await expect(table.getByTestId('scenario-memory-0')).toHaveText(/^[\d.]+ \/ 80 GiB \([\d.]+ %\)/);
  await expect(table.getByTestId('scenario-memory-2')).toHaveText(/^[\d.]+ \/ 141 GiB \([\d.]+ %\)/);

  const markdown = await downloaded(page, 'Scenarios as Markdown');
  expect(markdown.name).toBe('llama-3-70b-scenarios.md');
  const lines = markdown.text.split('\n');
  expect(lines).toContain('| Field | A | B | C | H200, PP 2 | Current |');
  for (const label of MARKDOWN_ROWS) {
    const row = lines.find((l) => l.startsWith(`| ${label} |`));
    expect(row, label).toBeDefined();
    // Five scenarios, each with a value: no cell left empty.
    expect(row?.split(' | ').length, label).toBe(6);
  }
  expect(lines.find((l) => l.startsWith('| Cluster'))).toContain('64 × NVIDIA H200 SXM 141GB');

  const csv = await downloaded(page, 'Scenarios as CSV');
  expect(csv.name).toBe('llama-3-70b-scenarios.csv');
  const [header, ...rows] = csv.text.trimEnd().split('\r\n');
  const columns = header?.split(',') ?? [];
  for (const column of CSV_HEADERS) expect(columns, column).toContain(column);
  expect(rows).toHaveLength(5);
  expect(rows[3]).toMatch(/^"H200, PP 2",Llama 3 70B,[\d.e+]+,[\d.e+]+,[\d.e+]+,NVIDIA H200 SXM 141GB,64,[\d.]+,1000000000000,4,2,/);
  expect(rows[4]?.startsWith('Current,')).toBe(true);
  // The current configuration's figures are present (no empty field among the figures).
  expect(rows.every((r) => !/,,/.test(r))).toBe(true);
});
