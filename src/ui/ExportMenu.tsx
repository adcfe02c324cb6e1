// Export buttons: JSON, Markdown and CSV from the pure exporters, and one PNG of
// the charts on the page, drawn locally (SVG → image → canvas), no network.

import { useState } from 'react';
import type { EstimateOutput } from '../model/input/index.ts';
import { downloadBlob } from './download.ts';
import { ExportBar } from './ExportBar.tsx';
import { fileBaseName, toCsv, toJson, toMarkdown } from './exporters.ts';

const CHART_SELECTOR = '[data-testid=memory-chart], [data-testid=pipeline-chart], [data-testid=step-breakdown-chart]';
const PNG_SCALE = 2;
const PAD = 16;
const FONT = '12px system-ui, sans-serif';
const TITLE_FONT = '600 14px system-ui, sans-serif';
const LINE = 20;

/** The first non-transparent background up the tree, else the theme's page color. */
function backgroundOf(element: Element): string {
  for (let node: Element | null = element; node; node = node.parentElement) {
    const color = getComputedStyle(node).backgroundColor;
    if (color && color !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(color)) return color;
  }
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? '#111827' : '#ffffff';
}

function largestSvg(wrapper: Element): SVGSVGElement | null {
  let best: SVGSVGElement | null = null;
  let bestArea = 0;
  for (const svg of wrapper.querySelectorAll('svg')) {
    const { width, height } = svg.getBoundingClientRect();
    if (width * height > bestArea) {
      best = svg;
      bestArea = width * height;
    }
  }
  return best;
}

interface ChartImage {
  readonly title: string;
  readonly image: HTMLImageElement;
  readonly width: number;
  readonly height: number;
  readonly legend: readonly { label: string; color: string; dashed: boolean }[];
}

/** Serializes the SVG with its inherited text color and font inlined, since the image has no page CSS. */
async function chartImage(wrapper: HTMLElement): Promise<ChartImage | null> {
  const svg = largestSvg(wrapper);
  if (!svg) return null;
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const style = getComputedStyle(wrapper);
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.style.color = style.color;
  clone.style.fontFamily = style.fontFamily;
  const source = new XMLSerializer().serializeToString(clone);
  const image = new Image();
  image.decoding = 'sync';
  await new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error('the chart image could not be drawn'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(source)}`;
  });
  const legend = [...wrapper.querySelectorAll<HTMLElement>('[data-legend-label]')].map((item) => ({
    label: item.dataset.legendLabel ?? '',
    color: item.dataset.legendColor ?? '#6b7280',
    dashed: item.dataset.legendDashed === 'true',
  }));
  // In the comparison, each chart is titled with the configuration it belongs to (a pinned scenario's name, or "Current").
  const owner = wrapper.closest<HTMLElement>('[data-export-label]')?.dataset.exportLabel;
  const title = wrapper.dataset.chartTitle ?? '';
  return { title: owner ? `${owner}: ${title}` : title, image, width, height, legend };
}

function legendHeight(context: CanvasRenderingContext2D, chart: ChartImage, width: number): number {
  let x = 0;
  let rows = chart.legend.length > 0 ? 1 : 0;
  for (const item of chart.legend) {
    const w = 18 + context.measureText(item.label).width + 16;
    if (x + w > width && x > 0) {
      rows++;
      x = 0;
    }
    x += w;
  }
  return rows * LINE;
}

function drawLegend(context: CanvasRenderingContext2D, chart: ChartImage, top: number, width: number, textColor: string): void {
  let x = PAD;
  let y = top;
  for (const item of chart.legend) {
    const w = 18 + context.measureText(item.label).width + 16;
    if (x + w > PAD + width && x > PAD) {
      x = PAD;
      y += LINE;
    }
    if (item.dashed) {
      context.strokeStyle = item.color;
      context.lineWidth = 2;
      context.setLineDash([4, 2]);
      context.beginPath();
      context.moveTo(x, y + 10);
      context.lineTo(x + 14, y + 10);
      context.stroke();
      context.setLineDash([]);
    } else {
      context.fillStyle = item.color;
      context.fillRect(x, y + 4, 12, 12);
    }
    context.fillStyle = textColor;
    context.fillText(item.label, x + 18, y + 14);
    x += w;
  }
}

/** All charts on the page, stacked, with their titles and legends, as one PNG. */
async function chartsPng(): Promise<Blob | null> {
  const wrappers = [...document.querySelectorAll<HTMLElement>(CHART_SELECTOR)];
  const charts = (await Promise.all(wrappers.map(chartImage))).filter((c): c is ChartImage => c !== null);
  const first = wrappers[0];
  if (charts.length === 0 || !first) return null;
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.font = FONT;
  const width = Math.max(...charts.map((c) => c.width));
  const heights = charts.map((c) => LINE + c.height + legendHeight(context, c, width) + PAD);
  canvas.width = Math.ceil((width + 2 * PAD) * PNG_SCALE);
  canvas.height = Math.ceil((PAD + heights.reduce((a, b) => a + b, 0)) * PNG_SCALE);
  context.scale(PNG_SCALE, PNG_SCALE);
  context.fillStyle = backgroundOf(first);
  context.fillRect(0, 0, width + 2 * PAD, canvas.height / PNG_SCALE);
  const textColor = getComputedStyle(first).color;
  let top = PAD;
  charts.forEach((chart, i) => {
    context.fillStyle = textColor;
    context.font = TITLE_FONT;
    context.fillText(chart.title, PAD, top + 14);
    context.drawImage(chart.image, PAD, top + LINE, chart.width, chart.height);
    context.font = FONT;
    drawLegend(context, chart, top + LINE + chart.height, width, textColor);
    top += heights[i] ?? 0;
  });
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

const BUTTON =
  'rounded-md border border-gray-400 bg-white px-3 py-1.5 text-sm font-medium text-gray-900 hover:bg-gray-100 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:opacity-60 ' +
  'dark:border-gray-500 dark:bg-gray-800 dark:text-gray-100 dark:hover:bg-gray-700 dark:focus-visible:outline-blue-400';

export function ExportMenu(props: { document: unknown; output: EstimateOutput }) {
  const { document: doc, output } = props;
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const base = fileBaseName(doc);
  const saveText = (text: string, extension: string, type: string) => {
    downloadBlob(new Blob([text], { type }), `${base}.${extension}`);
    setStatus(`Saved ${base}.${extension}`);
  };
  const savePng = async () => {
    setBusy(true);
    try {
      const blob = await chartsPng();
      if (blob) {
        downloadBlob(blob, `${base}-charts.png`);
        setStatus(`Saved ${base}-charts.png`);
      } else {
        setStatus('No charts on the page to save.');
      }
    } catch (error) {
      setStatus(`Could not save the charts: ${error instanceof Error ? error.message : String(error)}.`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ExportBar
      group="Export"
      status={status}
      buttonClass={BUTTON}
      actions={[
        { label: 'Export JSON', run: () => saveText(toJson(doc, output), 'json', 'application/json') },
        { label: 'Export Markdown', run: () => saveText(toMarkdown(doc, output), 'md', 'text/markdown') },
        { label: 'Export CSV', run: () => saveText(toCsv(output), 'csv', 'text/csv') },
        { label: 'Save charts as PNG', run: () => void savePng(), disabled: busy },
      ]}
    />
  );
}
