import { describe, it, expect } from 'vitest';
import { createElement } from 'react';
import type { FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import PipelineChart from './PipelineChart.tsx';
import MemoryChart from './MemoryChart.tsx';
import StepBreakdownChart from './StepBreakdownChart.tsx';
import { gpipeTimeline, partialOutput, sampleOutput } from '../testOutputs.ts';
import type { EstimateOutput } from '../../model/input/index.ts';

function render(chart: FunctionComponent<{ output: EstimateOutput }>, output: EstimateOutput): string {
  return renderToStaticMarkup(createElement(chart, { output }));
}

function count(html: string, pattern: RegExp): number {
  return (html.match(pattern) ?? []).length;
}

describe('PipelineChart', () => {
  it('draws one rect per block with its kind: GPipe 8 × 8 has 64 F and 64 B', () => {
    const html = render(PipelineChart, sampleOutput());
    expect(count(html, /<rect[^>]*data-kind="F"/g)).toBe(64);
    expect(count(html, /<rect[^>]*data-kind="B"/g)).toBe(64);
    expect(html).toContain('data-testid="pipeline-chart"');
    expect(html).toContain('role="img"');
    // The one bubble figure: the output's bubbleFraction (0.5 s of a 5.21 s step = 9.6 %), not a second number from the timeline.
    expect(html).toMatch(
      /aria-label="Pipeline schedule: 8 stages, 8 micro-batches, 128 blocks \(forward 64, backward 64\) over 4.5 s; pipeline bubble 9.6 % of the step/,
    );
    expect(html).toContain('pipeline bubble 9.6 % of the step');
    // Stages are counted from 1, as in the formula views.
    expect(html).toContain('>Stage 1<');
    expect(html).toContain('>Stage 8<');
    expect(html).not.toContain('>Stage 0<');
  });

  it('has a per-stage table outside the img role', () => {
    const html = render(PipelineChart, sampleOutput());
    const tableStart = html.indexOf('<details');
    const imgEnd = html.indexOf('</div>', html.indexOf('data-testid="pipeline-chart"'));
    expect(tableStart).toBeGreaterThan(imgEnd);
    // Each stage busy 8 × 0.3 = 2.4 s of 4.5 s, idle 2.1 s.
    expect(count(html, /<tr><th scope="row"/g)).toBe(8);
    expect(html).toContain('<td class="px-2">2.4 s</td><td class="px-2">2.1 s</td><td class="px-2">46.7 %</td>');
  });

  it('renders 20,000 blocks without per-block components', () => {
    const output = { ...sampleOutput(), timeline: gpipeTimeline(100, 100, 0.01, 0.02) };
    const started = performance.now();
    const html = render(PipelineChart, output);
    expect(count(html, /data-kind=/g)).toBe(20_000);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('says why when there is no timeline', () => {
    expect(render(PipelineChart, partialOutput())).toContain('schedule not simulated');
  });
});

describe('MemoryChart', () => {
  it('tabulates every stage and layer, marking the stage that does not fit', () => {
    const html = render(MemoryChart, sampleOutput());
    expect(html).toContain('data-testid="memory-chart"');
    expect(html).toContain('1 of 8 stages exceed it');
    expect(count(html, /<tr><th scope="row"/g)).toBe(8);
    expect(count(html, /no: out of memory/g)).toBe(1);
    // Stage 1: 20 + 20 + 30 + 20 + 2 = 92 GiB allocated, + 10 % reserve (9.2) + 1.5 GiB runtime = 102.7 GiB on the device (testOutputs.ts),
    // shown to three figures.
    expect(html).toContain('<td class="px-2">9.2</td><td class="px-2">1.5</td><td class="px-2 font-medium">103</td>');
    // Five allocated parts, the allocator reserve, the runtime and the capacity line: eight legend entries.
    expect(count(html, /data-legend-label=/g)).toBe(8);
    expect(html).toContain('data-legend-label="Allocator reserve"');
    expect(html).toContain('data-legend-label="CUDA context, NCCL, cuBLAS"');
  });

  it('draws and names the figure the verdict judges, and says all stages fit only when they do', () => {
    // 56 GiB allocated × 1.1 + 1.5 = 63.1 GiB on the device.
    const html = render(MemoryChart, partialOutput());
    expect(html).toContain('All stages fit in 80 GiB: the most loaded holds 63.1 GiB on the device.');
    expect(html).toContain('63.1 GiB per GPU on the device');
  });
});

describe('StepBreakdownChart', () => {
  it('tabulates the nine parts with their share of the step', () => {
    const html = render(StepBreakdownChart, sampleOutput());
    expect(count(html, /<tr><th scope="row"/g)).toBe(9);
    // compute 3.6 s of 5.21 s = 69.1 %.
    expect(html).toContain('<td class="px-2">3.6 s</td><td class="px-2">69.1 %</td>');
    expect(html).toMatch(/aria-label="Step-time breakdown of a 5.21 s step; largest parts: compute 3.6 s/);
  });

  it('says why when the time model has not run', () => {
    expect(render(StepBreakdownChart, partialOutput())).toContain('time model not computed');
  });
});
