// The headline figures of an estimate as labelled cards. Each value element
// carries its figure id as data-testid, the formatted number first in its text,
// and the raw base-unit value in data-value for tests and tools.

import { useId } from 'react';
import type { EstimateOutput } from '../model/input/index.ts';
import { FIGURE_GROUPS, FIGURE_GROUP_LABELS, keyFigures, memoryCapacityNote } from './keyFigures.ts';
import type { FigureGroup, KeyFigure } from './keyFigures.ts';
import { ExplainButton } from './explain/ExplainButton.tsx';
import { FigureBand, OomVerdictLine } from './uncertainty/FigureUncertainty.tsx';

const NONE: readonly string[] = [];
const CARD = 'flex flex-col gap-0.5 rounded-lg border bg-white p-3 dark:bg-gray-900';
const CARD_BORDER = 'border-gray-200 dark:border-gray-700';
const CARD_BORDER_OOM = 'border-red-600 dark:border-red-400';
const LABEL = 'text-sm font-medium text-gray-700 dark:text-gray-300';
const VALUE = 'font-semibold tabular-nums text-gray-900 dark:text-gray-50';
const NOTE = 'text-xs text-gray-600 dark:text-gray-400';
const OOM_TEXT = 'text-sm font-medium text-red-700 dark:text-red-300';

/**
 * One figure as a card. A `summarized` figure is already in the summary strip (with its id, formula button, verdict
 * and out-of-memory note): its card here is the second look, the value again with its range and explanation.
 */
function FigureCard({
  figure,
  output,
  compact,
  summarized = false,
}: {
  figure: KeyFigure;
  output: EstimateOutput;
  compact: boolean;
  summarized?: boolean;
}) {
  const memory = figure.id === 'memory-total' && figure.value !== null ? memoryCapacityNote(output) : null;
  const oom = summarized ? null : (memory?.oomText ?? null);
  if (summarized) {
    return (
      <div className={`${CARD} ${CARD_BORDER}`}>
        <dt className={LABEL}>{figure.label}</dt>
        <dd data-testid={`${figure.id}-detail`} className={`${VALUE} text-lg`}>
          {figure.text}
          {memory && <span className="text-sm font-normal text-gray-700 dark:text-gray-300"> {memory.capacityText}</span>}
        </dd>
        <FigureBand figureId={figure.id} output={output} />
        <dd className={NOTE}>{figure.explanation}</dd>
        {figure.unavailableReason && <dd className={`${NOTE} italic`}>Not available: {figure.unavailableReason}</dd>}
      </div>
    );
  }
  return (
    <div className={`${CARD} ${oom ? CARD_BORDER_OOM : CARD_BORDER}`}>
      <dt className={LABEL}>{figure.label}</dt>
      <dd data-testid={figure.id} data-value={figure.value ?? ''} className={`${VALUE} ${compact ? 'text-lg' : 'text-2xl'}`}>
        <ExplainButton figureId={figure.value === null ? '' : figure.id} label={figure.label} output={output}>
          {figure.text}
          {memory && <span className="text-sm font-normal text-gray-700 dark:text-gray-300"> {memory.capacityText}</span>}
        </ExplainButton>
      </dd>
      <FigureBand figureId={figure.id} output={output} />
      {oom && (
        <dd data-testid="oom-warning" className={OOM_TEXT}>
          <span aria-hidden="true">⚠ </span>
          {oom}
        </dd>
      )}
      {memory && <OomVerdictLine output={output} />}
      <dd className={NOTE}>{figure.explanation}</dd>
      {figure.unavailableReason && <dd className={`${NOTE} italic`}>Not available: {figure.unavailableReason}</dd>}
    </div>
  );
}

function FigureGroupBlock({
  group,
  figures,
  output,
  compact,
  summarized,
}: {
  group: FigureGroup;
  figures: readonly KeyFigure[];
  output: EstimateOutput;
  compact: boolean;
  summarized: readonly string[];
}) {
  const headingId = `${useId()}-${group}`;
  return (
    <div role="group" aria-labelledby={headingId} className="flex flex-col gap-2">
      <p id={headingId} className="text-xs font-semibold uppercase tracking-wide text-gray-700 dark:text-gray-300">
        {FIGURE_GROUP_LABELS[group]}
      </p>
      {group === 'memory' && <p className={NOTE}>Select an underlined figure to see its formula with this run's numbers and its source.</p>}
      <dl className="grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] gap-2">
        {figures.map((figure) => (
          <FigureCard key={figure.id} figure={figure} output={output} compact={compact} summarized={summarized.includes(figure.id)} />
        ))}
      </dl>
    </div>
  );
}

/**
 * The key figures of one estimate; `compact` shows only the headline ones, in one grid; `groups` picks which groups
 * to show; `summarized` names figures the summary strip shows with their ids (their cards here keep range and explanation).
 */
export function Figures(props: {
  output: EstimateOutput;
  compact?: boolean;
  groups?: readonly FigureGroup[];
  summarized?: readonly string[];
}) {
  const { output, compact = false, groups = FIGURE_GROUPS, summarized = NONE } = props;
  const figures = keyFigures(output);
  if (compact) {
    return (
      <div role="group" aria-label="Key figures">
        <dl className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-2">
          {figures
            .filter((f) => f.headline)
            .map((figure) => (
              <FigureCard key={figure.id} figure={figure} output={output} compact />
            ))}
        </dl>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {groups.map((group) => (
        <FigureGroupBlock
          key={group}
          group={group}
          figures={figures.filter((f) => f.group === group)}
          output={output}
          compact={false}
          summarized={summarized}
        />
      ))}
    </div>
  );
}
