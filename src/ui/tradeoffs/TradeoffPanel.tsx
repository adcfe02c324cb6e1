// "What does this knob trade?": pick a knob, see tokens/s, memory per GPU and dollars (or
// days) across its values, click a point to apply it; below, goodput against the
// checkpoint interval with the Young/Daly optimum. The curves come from the engine's sweep
// (model/sweep) in a worker of their own (tradeoff-client.ts), asked once the input
// settles, so a dragged slider never waits for them, and only once the reader has scrolled
// near the panel (nothing is computed for a page nobody reads this far). It asks, shows, applies.

import { Suspense, lazy, memo, startTransition, useCallback, useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { SWEEP_KNOBS, type SeqLenHold, type SweepKnob, type SweepResult } from '../../model/sweep/index.ts';
import { getAt, withFieldChanges, type Doc } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import type { TradeoffAnswer } from '../../worker/api.ts';
import { tradeoffClient } from '../../worker/page-clients.ts';
import { BUTTON } from '../buttons.ts';
import { formatMinutes } from '../format.ts';
import { messageInWords } from '../errorWords.ts';
import { useSettledValue } from '../useSettledValue.ts';
import { STALE_CLASS, STALE_TEXT } from '../SummaryStrip.tsx';
import { ChoiceSelect } from '../controls/SettingField.tsx';
import { holdingLine, KNOB_CAPTIONS, knobCaption } from './captions.ts';
import { BANDED_KNOBS, tradeoffPoints, valueLabel, type TradeoffPoint } from './points.ts';
import type { CostUnit } from './TradeoffChart.tsx';

// Memoized: a new estimate re-renders the panel, but the curves redraw only when their own answer changes.
const TradeoffChart = memo(lazy(() => import('./TradeoffChart.tsx')));
const CheckpointCurve = memo(lazy(() => import('./CheckpointCurve.tsx')));

/** Quiet time before the curves are asked for: a dragged slider asks once, when it stops. */
const ASK_AFTER_MS = 400;
const PANEL = 'rounded-lg border border-gray-300 p-4 dark:border-gray-700';
const KNOB_NAMES: Readonly<Record<SweepKnob, string>> = {
  tp: 'Tensor parallel (TP)',
  pp: 'Pipeline parallel (PP)',
  cp: 'Context parallel (CP)',
  ep: 'Expert parallel (EP)',
  vpp: 'Virtual pipeline stages (VPP)',
  microBatch: 'Micro-batch',
  globalBatch: 'Global batch',
  zero: 'ZeRO stage',
  recompute: 'Recomputation',
  precision: 'Precision',
  seqLen: 'Sequence length',
  gpus: 'GPUs (DP follows)',
  checkpointInterval: 'Checkpoint interval',
  moeDispatcher: 'Token dispatcher',
  epComm: 'EP communication overlap',
  cudaGraph: 'CUDA graphs',
  etp: 'Expert tensor parallel (ETP)',
};
/** Knobs that mean something only for a mixture-of-experts model. */
const MOE_KNOBS: readonly SweepKnob[] = ['ep', 'moeDispatcher', 'epComm', 'cudaGraph', 'etp'];

interface Asked {
  readonly document: Doc;
  readonly knob: SweepKnob;
  readonly seqLenHold: SeqLenHold;
  readonly answer: TradeoffAnswer;
}

/** True from the first time the element comes within a screen of the viewport: the curves are computed only for a reader who scrolls to them. */
function useSeen(ref: RefObject<HTMLElement | null>): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return undefined;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return undefined;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  return seen;
}

/**
 * The answer, its checkpoint curve the previous answer's when that was asked for the same document: the checkpoint curve
 * depends on the document alone, so picking another knob does not redraw its two charts (the worker computes it anew each time).
 */
function keepCheckpoint(previous: Asked | null, document: Doc, seqLenHold: SeqLenHold, answer: TradeoffAnswer): TradeoffAnswer {
  const same = previous !== null && previous.document === document && previous.seqLenHold === seqLenHold;
  return same && previous.answer.checkpoint !== answer.checkpoint ? { ...answer, checkpoint: previous.answer.checkpoint } : answer;
}

function useCurves(document: Doc | null, knob: SweepKnob, seqLenHold: SeqLenHold): { answer: TradeoffAnswer | null; current: boolean } {
  const settled = useSettledValue(document, ASK_AFTER_MS);
  const [asked, setAsked] = useState<Asked | null>(null);
  useEffect(() => {
    if (!settled) return undefined;
    let live = true;
    void tradeoffClient()
      .request({ document: settled, knob, seqLenHold })
      .then((answer) => {
        // A transition: React draws the new curves in slices that yield, so no task runs long.
        if (live && answer)
          startTransition(() =>
            setAsked((previous) => ({
              document: settled,
              knob,
              seqLenHold,
              answer: keepCheckpoint(previous, settled, seqLenHold, answer),
            })),
          );
      });
    return () => {
      live = false;
    };
  }, [settled, knob, seqLenHold]);
  const same = asked !== null && asked.document === document && asked.knob === knob && asked.seqLenHold === seqLenHold;
  return { answer: asked?.answer ?? null, current: same };
}

function Caption({ knob, result }: { knob: SweepKnob; result: SweepResult }) {
  const caption = knobCaption(knob, result.seqLenHold);
  const gpus = result.rows.find((r) => r.value === result.current)?.output;
  const holding = holdingLine(result);
  return (
    <div className="flex flex-col gap-1 text-sm text-gray-800 dark:text-gray-200">
      <p data-testid="tradeoff-caption">
        <strong>{caption.tradeoff}:</strong> {caption.why}
        {result.absorbedBy === 'dp' && knob !== 'gpus' && gpus && ' Data parallelism follows, so the cluster keeps its size.'}{' '}
        <span className="text-gray-700 dark:text-gray-300">Source: {caption.source}.</span>
      </p>
      {holding && <p data-testid="tradeoff-holding">{holding}</p>}
    </div>
  );
}

/**
 * The sequence-length curve's choice: hold the sequences per step (tokens per step follow) or the tokens per step (the batch in sequences
 * follows, inversely).
 */
function SeqLenHoldChoice({ value, onChange }: { value: SeqLenHold; onChange: (v: SeqLenHold) => void }) {
  const name = useId();
  const labels: Readonly<Record<SeqLenHold, string>> = {
    sequences: 'Sequences per step (tokens per step follow)',
    tokens: 'Tokens per step (sequences per step follow)',
  };
  return (
    <fieldset className="flex flex-wrap gap-3" data-testid="tradeoff-seqlen-hold">
      <legend className="font-medium">As the length changes, hold</legend>
      {(['sequences', 'tokens'] as const).map((v) => (
        <label key={v} className="flex items-center gap-1">
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
          {labels[v]}
        </label>
      ))}
    </fieldset>
  );
}

function Skipped({ result }: { result: SweepResult }) {
  if (result.skipped.length === 0) return null;
  return (
    <details className="text-sm text-gray-800 dark:text-gray-200">
      <summary className="cursor-pointer">
        {result.skipped.length} value{result.skipped.length === 1 ? '' : 's'} not drawn: the layout rules reject them
      </summary>
      <ul className="mt-1 list-disc pl-5">
        {result.skipped.map((s) => (
          <li key={String(s.value)}>
            {valueLabel(result.knob, s.value)}: {messageInWords(s.reason)}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Problems({ lines }: { lines: readonly string[] }) {
  return (
    <p role="status" className="text-sm text-gray-800 dark:text-gray-200">
      No curve for this configuration: {lines.map((l) => messageInWords(l)).join('; ')}
    </p>
  );
}

// Memoized: a knob's change redraws the panel's controls at once, and this section only when its own answer comes.
const CheckpointSection = memo(function CheckpointSection({
  result,
  document,
  onApply,
}: {
  result: SweepResult;
  document: Doc;
  onApply: (p: TradeoffPoint) => void;
}) {
  const store = usePlannerStore();
  const points = useMemo(() => tradeoffPoints(result), [result]);
  // The interval chosen against the distribution: the page's own estimate's (a sweep's rows carry the range alone).
  const own = usePlanner((st) => st.output?.reliability?.completion?.p50OptimalInterval);
  // One object while its figures stay the same: each estimate brings a new one, and the memoized curve redraws only for new figures.
  const [minutes, p10, p50, p90] = own ? [own.minutes, own.days.p10, own.days.p50, own.days.p90] : [];
  const medianBest = useMemo(
    () =>
      minutes !== undefined && p10 !== undefined && p50 !== undefined && p90 !== undefined
        ? { minutes, days: [p10, p50, p90] as const }
        : null,
    [minutes, p10, p50, p90],
  );
  if (result.errors.length > 0) return <Problems lines={result.errors} />;
  const reliability = result.rows[0]?.output.reliability;
  const optimum = reliability?.optimalCheckpointIntervalMinutes ?? null;
  const chosen = getAt(document, ['cost', 'checkpointIntervalMinutes']);
  const chosenMinutes = typeof chosen === 'number' ? chosen : null;
  if (optimum === null || points.length === 0) return null;
  const caption = KNOB_CAPTIONS.checkpointInterval;
  return (
    <div className="flex flex-col gap-2">
      <h4 className="text-sm font-semibold">Checkpoint interval against goodput</h4>
      <p className="text-sm text-gray-800 dark:text-gray-200">
        <strong>{caption.tradeoff}:</strong> {caption.why}{' '}
        <span className="text-gray-700 dark:text-gray-300">Source: {caption.source}.</span>
      </p>
      <Suspense fallback={<p className="min-h-48 text-sm">Loading the checkpoint curve…</p>}>
        <CheckpointCurve
          points={points}
          optimumMinutes={optimum}
          chosenMinutes={chosenMinutes}
          medianBest={medianBest}
          onApply={onApply}
          writeSeconds={reliability?.checkpointWriteSeconds ?? null}
          clusterMtbfHours={reliability?.clusterMtbfHours ?? null}
        />
      </Suspense>
      <div className="flex flex-wrap gap-2">
        {chosenMinutes !== null && (
          <button
            type="button"
            className={`${BUTTON} w-fit`}
            onClick={() => store.getState().setField(['cost', 'checkpointIntervalMinutes'], undefined)}
          >
            Checkpoint at the optimum again
          </button>
        )}
        {medianBest && medianBest.minutes !== (chosenMinutes ?? optimum) && (
          <button
            type="button"
            className={`${BUTTON} w-fit`}
            onClick={() => store.getState().setField(['cost', 'checkpointIntervalMinutes'], medianBest.minutes)}
          >
            Checkpoint every {formatMinutes(medianBest.minutes)} (the median run ends soonest)
          </button>
        )}
      </div>
    </div>
  );
});

export default function TradeoffPanel() {
  const store = usePlannerStore();
  const document = usePlanner((s) => s.outputDocument);
  const [knob, setKnob] = useState<SweepKnob>('tp');
  const [costUnit, setCostUnit] = useState<CostUnit>('usd');
  const [seqLenHold, setSeqLenHold] = useState<SeqLenHold>('sequences');
  const panel = useRef<HTMLElement>(null);
  const seen = useSeen(panel);
  // Only the sequence-length curve reads the choice: another knob's curve is not asked again when it changes.
  const { answer, current } = useCurves(seen ? document : null, knob, knob === 'seqLen' ? seqLenHold : 'sequences');
  // While the input is invalid the curves are the last valid input's, as every figure above is.
  const invalid = usePlanner((st) => st.errors.length > 0);
  const stale = !current || invalid;
  const knobId = useId();
  const moe = document !== null && getAt(document, ['model', 'moe']) != null;
  const knobs = SWEEP_KNOBS.filter((k) => k !== 'checkpointInterval' && (moe || !MOE_KNOBS.includes(k)));
  const apply = useCallback(
    (p: TradeoffPoint) => store.getState().replaceDocument(withFieldChanges(store.getState().document, p.changes)),
    [store],
  );
  const result = answer?.knob ?? null;
  const points = useMemo(() => (result ? tradeoffPoints(result) : []), [result]);
  return (
    <section
      ref={panel}
      aria-labelledby={`${knobId}-title`}
      data-testid="tradeoff-panel"
      aria-busy={current ? undefined : true}
      className={`${PANEL} panel-contained flex flex-col gap-3`}
    >
      <h3 id={`${knobId}-title`} className="text-base font-semibold">
        Trade-offs: move one knob, see the curve{invalid ? ` (${STALE_TEXT})` : ''}
      </h3>
      <div className="flex flex-wrap items-end gap-4 text-sm">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${knobId}-knob`} className="font-medium">
            Knob to sweep
          </label>
          <ChoiceSelect
            id={`${knobId}-knob`}
            value={knob}
            choices={knobs}
            words={KNOB_NAMES}
            onChange={setKnob}
            testId="tradeoff-knob"
            className="rounded border border-gray-500 bg-white px-2 py-1 dark:border-gray-400 dark:bg-gray-900"
          />
        </div>
        <fieldset className="flex gap-3">
          <legend className="font-medium">Third chart</legend>
          {(['usd', 'days'] as const).map((unit) => (
            <label key={unit} className="flex items-center gap-1">
              <input type="radio" name={`${knobId}-cost`} checked={costUnit === unit} onChange={() => setCostUnit(unit)} />
              {unit === 'usd' ? 'Dollars' : 'Days'}
            </label>
          ))}
        </fieldset>
        {knob === 'seqLen' && <SeqLenHoldChoice value={seqLenHold} onChange={setSeqLenHold} />}
      </div>
      {!result ? (
        <p className="min-h-40 text-sm text-gray-700 dark:text-gray-300">Computing the curves…</p>
      ) : result.errors.length > 0 ? (
        <Problems lines={result.errors} />
      ) : (
        <div
          className={`flex flex-col gap-3 ${stale ? STALE_CLASS : ''}`}
          data-stale={stale ? 'true' : undefined}
          data-knob={result.knob ?? undefined}
        >
          <Caption knob={result.knob ?? knob} result={result} />
          <Suspense fallback={<p className="min-h-96 text-sm">Loading the chart…</p>}>
            <TradeoffChart
              knobLabel={result.label}
              points={points}
              costUnit={costUnit}
              banded={result.knob !== null && BANDED_KNOBS.includes(result.knob)}
              onApply={apply}
            />
          </Suspense>
          <Skipped result={result} />
          {answer && document && <CheckpointSection result={answer.checkpoint} document={document} onApply={apply} />}
        </div>
      )}
    </section>
  );
}
