// Under a headline figure: the range nine in ten published runs like this one measured
// around such a prediction (the estimate's `uncertainty`, from its segment of the validation
// set: model/uncertainty), the basis one click away, and under memory the OOM-risk verdict
// with its rule.

import type { EstimateOutput } from '../../model/input/index.ts';
import type { OomVerdict } from '../../model/validation/index.ts';
import { fitMemoryBytes } from '../../model/memory/index.ts';
import { BAND_PERCENT, figureRange, rangeBases } from './figureRanges.ts';
import { VERDICT_ICON, VERDICT_LABEL, VERDICT_STYLE, fitAssessment, tightWords } from './memoryVerdict.ts';
import { hostShortfallWords } from './hostMemoryWords.ts';
import { formatGiB, formatPercent } from '../format.ts';

const NOTE = 'text-xs text-gray-700 dark:text-gray-300';

export function FigureBand({ figureId, output }: { figureId: string; output: EstimateOutput }) {
  const range = figureRange(figureId, output);
  if (!range) return null;
  const [low, high] = range.text.split(' – ');
  return (
    <dd data-testid={`band-${figureId}`} data-low={range.low} data-high={range.high} className={NOTE}>
      {BAND_PERCENT} range from published runs: <span className="whitespace-nowrap">{low}</span>
      {' – '}
      <span className="whitespace-nowrap">{high}</span>
    </dd>
  );
}

/** The strip's range under a figure: "range 1.02 M – 1.38 M" (the card below says what it is). */
export function StripRange({ figureId, output }: { figureId: string; output: EstimateOutput }) {
  const range = figureRange(figureId, output);
  if (!range) return null;
  return (
    <dd
      data-testid={`strip-range-${figureId}`}
      data-low={range.low}
      data-high={range.high}
      className="truncate text-xs tabular-nums text-gray-700 dark:text-gray-300"
    >
      <span className="sr-only">{BAND_PERCENT} range: </span>
      {range.text}
    </dd>
  );
}

/** "Why this range": the basis of the ranges (the segment of published runs, its count, the fallback, what lies beyond them), one click away. */
export function WhyThisRange({ output, className = '' }: { output: EstimateOutput; className?: string }) {
  const bases = rangeBases(output);
  if (!bases) return null;
  return (
    <details data-testid="why-range" data-beyond={bases.beyond ? 'true' : undefined} className={`${NOTE} ${className}`}>
      <summary
        className={
          'cursor-pointer rounded underline underline-offset-2 focus-visible:outline-2 ' +
          'focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300'
        }
      >
        Why this range{bases.beyond ? ' (beyond the validated range)' : ''}
      </summary>
      <p className="mt-1">
        Each range holds {BAND_PERCENT} of the published runs like this one: where they measured, against the planner's estimate for each.
      </p>
      <p data-testid="range-basis-speed">Speed, time and cost: {bases.speed}.</p>
      <p data-testid="range-basis-memory">Memory: {bases.memory}.</p>
    </details>
  );
}

/**
 * The verdict on the one memory figure (memory/fit.ts), its share of the GPU, and beside it
 * in words what "tight" is and where its margin comes from (tightWords), on the strip and the card.
 */
export function OomVerdictLine({ output }: { output: EstimateOutput }) {
  if (output.errors.length > 0) return null;
  const { capacity } = output.memory;
  const used = fitMemoryBytes(output);
  const device = fitAssessment(output);
  // memory.fits also asks the host to hold what offload puts there: a host it overflows is "will not fit" in words.
  const host = hostShortfallWords(output);
  const a = host ? { ...device, verdict: 'will-not-fit' as const } : device;
  const share = formatPercent(a.tightFromShare);
  // The figure itself is the strip's "Memory per GPU" (memory-total): here only its share, so the strip shows one memory figure.
  const gpuHeadline =
    device.verdict === 'will-not-fit'
      ? `above the GPU's ${formatGiB(capacity)}`
      : `${formatPercent(used / capacity)} of the GPU's memory, tight from ${share}`;
  const headline = host ? (device.verdict === 'will-not-fit' ? `${gpuHeadline}, and offload ${host}` : `offload ${host}`) : gpuHeadline;
  const bandTight = a.upperBytes > capacity;
  const rule: Record<OomVerdict, string> = {
    safe: tightWords(capacity, output),
    tight: bandTight
      ? `${tightWords(capacity, output)} Here that is ${formatGiB(a.upperBytes)}, more than the GPU's ${formatGiB(capacity)}.`
      : tightWords(capacity, output),
    'will-not-fit': `${tightWords(capacity, output)} Above 100 % the run will not fit.`,
  };
  const hostRule =
    "Offload keeps the optimizer states (and with parameter offload the weights) of every GPU of a node in that node's CPU memory: " +
    'spread the run over more nodes, offload less, or set "CPU memory per node" under Cluster if your nodes have more.';
  return (
    <dd data-testid="oom-verdict" data-verdict={a.verdict} className="flex flex-col">
      <span className={`text-sm font-medium ${VERDICT_STYLE[a.verdict]}`}>
        <span aria-hidden="true">{VERDICT_ICON[a.verdict]} </span>
        {VERDICT_LABEL[a.verdict]}: {headline}
      </span>
      <span data-testid="tight-rule" className={NOTE}>
        {host ? `${hostRule} ${tightWords(capacity, output)}` : rule[a.verdict]}
      </span>
    </dd>
  );
}
