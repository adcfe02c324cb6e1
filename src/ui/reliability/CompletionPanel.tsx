// When the run really ends and what it really costs (reliability.completion): the
// p10/p50/p90 days, dollars and dates of the engine's seeded simulation, on-demand and
// spot side by side when spot is chosen, and the runs' end days as a small histogram
// whose text alternative says the same in words. No arithmetic here: every figure is
// the engine's; the bars are its counts scaled to the picture.

import type { Completion, EstimateOutput } from '../../model/input/index.ts';
import { formatCount, formatDays, formatUsd } from '../format.ts';
import { elasticWords, medianIntervalWords, milestoneWords, percentileText } from './completionWords.ts';

const PANEL = 'rounded-lg border border-gray-300 p-4 dark:border-gray-700';
const CELL = 'px-2 py-1 text-right tabular-nums';
const HEAD = 'px-2 py-1 text-left font-medium';
const WIDTH = 240;
const HEIGHT = 60;

const rangeText = percentileText;

/** The date (or day) each quarter of the token budget is reached, the median run with its p10–p90. */
/** The header row: one column head for each name. */
function HeadRow({ names }: { names: readonly string[] }) {
  return (
    <tr>
      {names.map((name) => (
        <th key={name} scope="col" className={HEAD}>
          {name}
        </th>
      ))}
    </tr>
  );
}

/** A body row: its name, then its figures. */
function FigureRow({ name, cells }: { name: string; cells: readonly string[] }) {
  return (
    <tr>
      <th scope="row" className={HEAD}>
        {name}
      </th>
      {cells.map((cell, i) => (
        <td key={i} className={CELL}>
          {cell}
        </td>
      ))}
    </tr>
  );
}

function Milestones({ completion }: { completion: Completion }) {
  const rows = milestoneWords(completion);
  if (rows.length === 0) return null;
  return (
    <table className="mt-2 text-sm" data-testid="completion-milestones">
      <caption className="text-left text-sm">
        When each quarter of the token budget is reached{completion.endDate ? '' : ' (days from the start; set a start date for dates)'}
      </caption>
      <thead>
        <HeadRow names={['Share', 'Median run', 'Range']} />
      </thead>
      <tbody>
        {rows.map((m) => (
          <FigureRow key={m.share} name={m.share} cells={[m.when, m.range]} />
        ))}
      </tbody>
    </table>
  );
}

function Histogram({ completion, id }: { completion: Completion; id: string }) {
  const h = completion.histogram;
  if (!h || h.counts.length === 0) return null;
  const most = Math.max(...h.counts);
  const bar = WIDTH / h.counts.length;
  const runs = h.counts.reduce((a, b) => a + b, 0);
  const { days } = completion;
  const words =
    `Of ${formatCount(runs)} simulated runs, one in ten ends within ${formatDays(days.p10)}, half within ${formatDays(days.p50)}, ` +
    `nine in ten within ${formatDays(days.p90)}.`;
  return (
    <figure className="flex flex-col gap-1">
      <svg
        role="img"
        aria-labelledby={`${id}-caption`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-16 w-full max-w-xs text-blue-700 dark:text-blue-300"
        preserveAspectRatio="none"
        data-testid="completion-histogram"
      >
        {h.counts.map((c, i) => (
          <rect
            key={i}
            x={i * bar + 0.5}
            width={Math.max(0.5, bar - 1)}
            y={HEIGHT - (HEIGHT * c) / most}
            height={(HEIGHT * c) / most}
            fill="currentColor"
          />
        ))}
      </svg>
      <figcaption id={`${id}-caption`} className="text-xs text-gray-700 dark:text-gray-300">
        {words}
      </figcaption>
    </figure>
  );
}

/** onDemand is there only when the run is on spot capacity (estimate.ts): then both answers side by side. */
export function CompletionPanel({ output }: { output: EstimateOutput }) {
  const completion = output.reliability?.completion;
  if (!completion) return null;
  const { onDemand, endDate } = completion;
  const elastic = elasticWords(completion);
  const interval = medianIntervalWords(completion, output.reliability?.optimalCheckpointIntervalMinutes ?? null);
  return (
    <section aria-labelledby="completion-title" className={PANEL} data-testid="completion">
      <h3 id="completion-title" className="text-base font-semibold">
        When it ends and what it costs
      </h3>
      <p className="text-sm text-gray-700 dark:text-gray-300">
        Expected interruptions: {formatCount(Math.round(output.reliability?.expectedInterruptions ?? 0))}
      </p>
      {onDemand ? (
        <table className="mt-2 text-sm" data-testid="capacity-comparison">
          <caption className="text-left text-sm">On-demand and spot, the median run with its p10–p90 range</caption>
          <thead>
            <HeadRow names={['Capacity', 'Days', 'Dollars']} />
          </thead>
          <tbody>
            <FigureRow name="On-demand" cells={[rangeText(onDemand.days, formatDays), rangeText(onDemand.usd, formatUsd)]} />
            <FigureRow name="Spot" cells={[rangeText(completion.days, formatDays), rangeText(completion.usd, formatUsd)]} />
          </tbody>
        </table>
      ) : (
        <table className="mt-2 text-sm">
          <caption className="text-left text-sm">The run's end over the simulated runs</caption>
          <thead>
            <HeadRow names={['Percentile', 'Days', 'Dollars', ...(endDate ? ['Ends on'] : [])]} />
          </thead>
          <tbody>
            {(['p10', 'p50', 'p90'] as const).map((p) => (
              <FigureRow
                key={p}
                name={p}
                cells={[formatDays(completion.days[p]), formatUsd(completion.usd[p]), ...(endDate ? [endDate[p]] : [])]}
              />
            ))}
          </tbody>
        </table>
      )}
      {onDemand && endDate && (
        <p className="mt-1 text-sm">
          Spot ends on {endDate.p50} (p10 {endDate.p10}, p90 {endDate.p90}).
        </p>
      )}
      <Milestones completion={completion} />
      {elastic && (
        <p className="mt-1 text-sm" data-testid="completion-elastic">
          {elastic}
        </p>
      )}
      {interval && (
        <p className="mt-1 text-sm" data-testid="completion-interval">
          {interval}
        </p>
      )}
      <Histogram completion={completion} id="completion" />
      <details className="text-xs text-gray-700 dark:text-gray-300">
        <summary className="cursor-pointer">How this is simulated</summary>
        <p>{completion.basis}</p>
      </details>
    </section>
  );
}
