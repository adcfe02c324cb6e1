// Under a headline figure: the range nine in ten published runs measured around such
// a prediction (model/uncertainty.ts, from the validation set), and under memory the
// OOM-risk verdict with its rule.

import type { EstimateOutput } from '../../model/input/index.ts';
import { headlineBands, type BandedFigure, type OomVerdict } from '../../model/validation/index.ts';
import { fitMemoryBytes } from '../../model/memory/index.ts';
import { UNCERTAINTY_TABLE } from '../../model/validation/index.ts';
import { VERDICT_ICON, VERDICT_LABEL, VERDICT_STYLE, fitAssessment, tightWords } from './memoryVerdict.ts';
import { hostShortfallWords } from './hostMemoryWords.ts';
import { formatDays, formatGiB, formatPercent, formatSeconds, formatTokensPerSecond, formatUsd } from '../format.ts';

/** Figure id → the output field its band is for, and the figure's own formatter. */
const BANDED: Readonly<Record<string, { readonly key: BandedFigure; readonly format: (value: number) => string }>> = {
  'memory-total': { key: 'memoryTotal', format: formatGiB },
  'step-time': { key: 'stepSeconds', format: formatSeconds },
  'tokens-per-second': { key: 'tokensPerSecond', format: formatTokensPerSecond },
  mfu: { key: 'mfu', format: formatPercent },
  'training-days': { key: 'days', format: formatDays },
  'cost-usd': { key: 'usd', format: formatUsd },
};

const NOTE = 'text-xs text-gray-700 dark:text-gray-300';
const BAND_PERCENT = `${Math.round((UNCERTAINTY_TABLE.upperQuantile - UNCERTAINTY_TABLE.lowerQuantile) * 100)} %`;

export function FigureBand({ figureId, output }: { figureId: string; output: EstimateOutput }) {
  const spec = BANDED[figureId];
  const band = spec ? headlineBands(output, UNCERTAINTY_TABLE)[spec.key] : undefined;
  if (!spec || !band) return null;
  return (
    <dd data-testid={`band-${figureId}`} data-low={band.low} data-high={band.high} className={NOTE}>
      {BAND_PERCENT} range from published runs: <span className="whitespace-nowrap">{spec.format(band.low)}</span>
      {' – '}<span className="whitespace-nowrap">{spec.format(band.high)}</span>
    </dd>
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
  const gpuHeadline = device.verdict === 'will-not-fit'
    ? `above the GPU's ${formatGiB(capacity)}`
    : `${formatPercent(used / capacity)} of the GPU's memory, tight from ${share}`;
  const headline = host ? (device.verdict === 'will-not-fit' ? `${gpuHeadline}, and offload ${host}` : `offload ${host}`) : gpuHeadline;
  const bandTight = a.upperBytes > capacity;
  const rule: Record<OomVerdict, string> = {
    safe: tightWords(capacity),
    tight: bandTight
      ? `${tightWords(capacity)} Here that is ${formatGiB(a.upperBytes)}, more than the GPU's ${formatGiB(capacity)}.`
      : tightWords(capacity),
    'will-not-fit': `${tightWords(capacity)} Above 100 % the run will not fit.`,
  };
  const hostRule = 'Offload keeps the optimizer states (and with parameter offload the weights) of every GPU of a node in that node\'s CPU memory: '
    + 'spread the run over more nodes, offload less, or set "CPU memory per node" under Cluster if your nodes have more.';
  return (
    <dd data-testid="oom-verdict" data-verdict={a.verdict} className="flex flex-col">
      <span className={`text-sm font-medium ${VERDICT_STYLE[a.verdict]}`}>
        <span aria-hidden="true">{VERDICT_ICON[a.verdict]} </span>{VERDICT_LABEL[a.verdict]}: {headline}
      </span>
      <span data-testid="tight-rule" className={NOTE}>{host ? `${hostRule} ${tightWords(capacity)}` : rule[a.verdict]}</span>
    </dd>
  );
}
