import { describe, it, expect } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Figures } from './Figures.tsx';
import { partialOutput, sampleOutput } from './testOutputs.ts';
import type { EstimateOutput } from '../model/input/index.ts';

function render(output: EstimateOutput, compact = false): string {
  return renderToStaticMarkup(createElement(Figures, { output, compact }));
}

/** The text of the element carrying data-testid=id (tags stripped). */
function textOf(html: string, id: string): string | null {
  const match = new RegExp(`<(\\w+)[^>]*data-testid="${id}"[^>]*>(.*?)</\\1>`).exec(html);
  return match?.[2] ? match[2].replace(/<[^>]+>/g, '') : null;
}

describe('Figures', () => {
  it('puts the formatted number first in each test-id element', () => {
    const html = render(sampleOutput());
    // Memory per GPU is what the device holds: 92 GiB allocated × 1.1 reserve + 1.5 GiB runtime = 102.7 GiB (testOutputs.ts).
    expect(textOf(html, 'memory-total')).toBe('103 GiB of 80 GiB');
    expect(textOf(html, 'memory-allocated')).toBe('92 GiB');
    expect(textOf(html, 'mfu')).toBe('41.3 %');
    expect(textOf(html, 'step-time')).toBe('5.21 s');
    expect(textOf(html, 'bubble-fraction')).toBe('9.6 %');
    expect(parseFloat(textOf(html, 'mfu') ?? '')).toBeCloseTo(41.3, 5);
    expect(html).toContain('data-value="0.4132"');
  });

  it('warns when the most loaded GPU does not fit', () => {
    expect(textOf(render(sampleOutput()), 'oom-warning')).toContain(
      'Out of memory: needs 103 GiB per GPU (of which 101 GiB reserved by the allocator, 92 GiB allocated), the GPU has 80 GiB',
    );
    expect(render(partialOutput())).not.toContain('oom-warning');
  });

  it('labels and explains every figure', () => {
    const html = render(sampleOutput());
    expect(html).toContain('MFU</dt>');
    expect(html).toContain('Model FLOPs per second ÷ the GPU&#x27;s dense peak (Korthikanti 2022 §6)');
    expect((html.match(/<dt/g) ?? []).length).toBe(19);
  });

  it('shows a dash and the reason while the time model is missing', () => {
    const html = render(partialOutput());
    // 56 GiB allocated × 1.1 + 1.5 GiB = 63.1 GiB on the device.
    expect(textOf(html, 'memory-total')).toBe('63.1 GiB of 80 GiB');
    expect(textOf(html, 'step-time')).toBe('—');
    expect(html).toContain('Not available: time model not computed');
    expect(html).not.toMatch(/NaN|Infinity/);
  });

  it('shows only the headline figures when compact', () => {
    const html = render(sampleOutput(), true);
    for (const id of ['memory-total', 'mfu', 'step-time', 'bubble-fraction']) expect(textOf(html, id)).not.toBeNull();
    expect(textOf(html, 'hfu')).toBeNull();
  });
});
