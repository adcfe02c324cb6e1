// "Training log": paste, choose or drop the log of a run already made. A worker of its own
// reads it (with progress; nothing leaves the browser) and compares it with the page's
// configuration: the measured steady-state figures beside the predicted ones, what went
// wrong as pictures, and one click to calibrate the planner from the measured step time
// (and the peak memory, where the log prints the allocator's or the device's figure).
// The comparison follows the page: when the configuration changes it is marked stale and
// computed again (in a worker) once the edits settle, with a button to refresh it at once.

import { Suspense, lazy, useEffect, useId, useState } from 'react';
import type { LogAnswer } from '../../worker/log-api.ts';
import type { LogReport, MeasuredFigure } from '../../model/log/index.ts';
import type { RunMeasurement } from '../../model/validation/index.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { createLogWorker } from '../../worker/start-workers.ts';
import { compareLogInWorker, readLogInWorker } from '../../worker/log-client.ts';
import { BUTTON } from '../buttons.ts';
import { HINT } from '../controls/fields.tsx';
import { FilePicker, PasteBox, useDropTarget } from '../controls/importParts.tsx';
import { Section } from '../controls/Section.tsx';
import { fitAndApply, type FitStatus } from '../calibrate/apply-fit.ts';
import { formatGiB, formatNumber, formatPercent, formatSeconds } from '../format.ts';
import { anomalyWords } from './anomalyWords.ts';
import { useSettledValue } from '../useSettledValue.ts';

// The charts (recharts) load once a log has been read, not with the section.
const LogCharts = lazy(() => import('./LogCharts.tsx'));

type Read = Extract<LogAnswer, { ok: true }>;

const FIGURES: ReadonlyArray<[MeasuredFigure, string, (v: number) => string]> = [
  ['stepSeconds', 'Step time', formatSeconds],
  ['tokensPerSecondPerGpu', 'Tokens/s per GPU', (v) => formatNumber(Math.round(v))],
  ['tflopsPerGpu', 'TFLOP/s per GPU', (v) => formatNumber(Number(v.toPrecision(4)))],
  ['mfu', 'MFU', formatPercent],
  ['memoryBytes', 'Memory', formatGiB],
];

const FRAMEWORK_NAMES: Readonly<Record<string, string>> = {
  megatron: 'Megatron-LM',
  'megatron-deepspeed': 'Megatron-DeepSpeed',
  nemo: 'NeMo',
  'nemo-automodel': 'NeMo AutoModel',
  torchtitan: 'torchtitan',
  deepspeed: 'DeepSpeed',
  'hf-trainer': 'Hugging Face Trainer',
};

/** What the calibration can take from the log: the step time, and memory only as nvidia-smi would show it (reserved or device). */
function measurementOf(report: LogReport): RunMeasurement | null {
  const m = report.measured;
  const memory =
    m.memoryBytes !== null && (m.memoryMetric === 'peak reserved' || m.memoryMetric === 'device used') ? m.memoryBytes : undefined;
  const metric = m.memoryMetric === 'peak reserved' ? 'peak reserved' : 'device used';
  const out: RunMeasurement = {
    ...(m.stepSeconds !== null ? { stepSeconds: m.stepSeconds } : {}),
    ...(memory !== undefined ? { peakMemoryBytes: memory, peakMemoryMetric: metric } : {}),
  };
  return Object.keys(out).length > 0 ? out : null;
}

function Comparison({ read }: { read: Read }) {
  const { report, comparison } = read;
  return (
    <table className="w-full text-sm text-gray-900 dark:text-gray-100" data-testid="log-comparison">
      <caption className="sr-only">Measured over the steady steps beside the planner's prediction for this configuration</caption>
      <thead>
        <tr className="text-left">
          <th scope="col">Figure</th>
          <th scope="col">Measured</th>
          <th scope="col">Predicted</th>
          <th scope="col">Measured ÷ predicted</th>
        </tr>
      </thead>
      <tbody>
        {FIGURES.map(([key, label, format]) => {
          const measured = report.measured[key];
          const predicted = comparison.predicted?.[key] ?? null;
          const ratio = comparison.ratio?.[key] ?? null;
          const what = key === 'memoryBytes' && report.measured.memoryMetric ? `${label} (${report.measured.memoryMetric})` : label;
          return (
            <tr key={key}>
              <th scope="row" className="font-normal">
                {what}
              </th>
              <td data-testid={`log-measured-${key}`} data-value={measured ?? ''} className="tabular-nums">
                {measured === null ? 'not in the log' : format(measured)}
              </td>
              <td data-testid={`log-predicted-${key}`} data-value={predicted ?? ''} className="tabular-nums">
                {predicted === null ? '—' : format(predicted)}
              </td>
              <td className="tabular-nums">{ratio === null ? '—' : `×${ratio.toFixed(2)}`}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** How long the configuration must stay unchanged before the comparison is computed again. */
const RECOMPARE_QUIET_MS = 300;

type Staleness = { readonly stale: boolean; readonly failed: string | null; readonly refresh: () => void };

function StaleNote({ staleness }: { staleness: Staleness }) {
  if (!staleness.stale && !staleness.failed) return null;
  return (
    <div role="status" data-testid="log-stale" className="flex flex-wrap items-center gap-2 text-sm text-amber-900 dark:text-amber-200">
      <span>
        {staleness.failed
          ? `The comparison could not follow the new configuration (${staleness.failed}).`
          : 'The configuration changed: comparing the log with it again…'}
      </span>
      <button type="button" className={BUTTON} onClick={staleness.refresh}>
        Refresh the comparison
      </button>
    </div>
  );
}

function Result({ read, staleness }: { read: Read; staleness: Staleness }) {
  const store = usePlannerStore();
  const [fit, setFit] = useState<FitStatus | null>(null);
  const { report, comparison } = read;
  const measurement = measurementOf(report);
  const calibrate = async () => {
    if (!measurement) return;
    setFit({ busy: true, failed: false, lines: ['Fitting to the log…'] });
    setFit(await fitAndApply(store, measurement));
  };
  const framework = report.framework ? (FRAMEWORK_NAMES[report.framework] ?? report.framework) : 'no known framework';
  return (
    <div className="flex flex-col gap-3" data-testid="log-result">
      <p className="text-sm text-gray-900 dark:text-gray-100">
        {framework} log, {formatNumber(report.steps)} steps.{' '}
        {report.steady ? `Steady steps ${report.steady.from}–${report.steady.to}; skipped ${report.steady.skipped}.` : ''}
      </p>
      <StaleNote staleness={staleness} />
      {comparison.mismatch.length > 0 && (
        <p role="alert" data-testid="log-mismatch" className="text-sm text-red-700 dark:text-red-300">
          This log is of another run than the page's, so it is not compared: {comparison.mismatch.join('; ')}.
        </p>
      )}
      {comparison.errors.length > 0 && (
        <p className="text-sm text-red-700 dark:text-red-300">Not compared: {comparison.errors.join('; ')}</p>
      )}
      <div data-stale={staleness.stale ? 'true' : 'false'} className={staleness.stale ? 'opacity-60' : undefined}>
        <Comparison read={read} />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={`${BUTTON} w-fit`}
          disabled={!measurement || comparison.mismatch.length > 0 || (fit?.busy ?? false)}
          onClick={() => {
            void calibrate();
          }}
        >
          Calibrate
        </button>
        <span className={HINT}>
          {measurement
            ? "Fits the planner's compute efficiency (and memory overhead, for a reserved or device figure) to this log."
            : 'The log gives no step time or comparable memory to calibrate from.'}
        </span>
      </div>
      {fit && (
        <div
          role="status"
          data-testid="log-calibration-status"
          className={`text-sm ${fit.failed ? 'text-red-700 dark:text-red-300' : 'text-gray-800 dark:text-gray-200'}`}
        >
          {fit.lines.map((l, i) => (
            <p key={i}>{l}</p>
          ))}
        </div>
      )}
      {report.anomalies.length > 0 && (
        <details open className="text-sm text-gray-900 dark:text-gray-100">
          <summary>
            {report.anomalies.length} flagged step{report.anomalies.length === 1 ? '' : 's'}
          </summary>
          <ul data-testid="log-anomalies" className="list-disc pl-5">
            {report.anomalies.slice(0, 50).map((a) => (
              <li key={`${a.kind}-${a.step}`}>{anomalyWords(a)}</li>
            ))}
          </ul>
        </details>
      )}
      <Suspense fallback={<p className={HINT}>Loading the charts…</p>}>
        <LogCharts report={report} />
      </Suspense>
      {report.warnings.length > 0 && (
        <ul className={`${HINT} list-disc pl-5`}>
          {report.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The comparison of a log already read with the page's document as it is now: stale while the document moves, computed again once it settles. */
function useFreshComparison(
  answer: LogAnswer | null,
  setAnswer: (a: LogAnswer) => void,
  comparedWith: unknown,
  setComparedWith: (d: unknown) => void,
): Staleness {
  const document = usePlanner((s) => s.document);
  const settled = useSettledValue(document, RECOMPARE_QUIET_MS);
  const [failed, setFailed] = useState<string | null>(null);
  const stale = answer?.ok === true && comparedWith !== document;
  const refresh = (doc: unknown) => {
    if (!answer?.ok) return;
    void compareLogInWorker(createLogWorker, answer.report, doc).then((c) => {
      if (!c.ok) {
        setFailed(c.errors.join('; '));
        return;
      }
      setFailed(null);
      setComparedWith(doc);
      setAnswer({ ...answer, comparison: c.comparison });
    });
  };
  useEffect(() => {
    if (answer?.ok && comparedWith !== settled && settled === document) refresh(settled);
    // Only a settled document that differs from the one compared starts a comparison.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled, comparedWith]);
  return { stale, failed, refresh: () => refresh(document) };
}

export function LogSection() {
  const store = usePlannerStore();
  const id = useId();
  const [text, setText] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [answer, setAnswer] = useState<LogAnswer | null>(null);
  const [comparedWith, setComparedWith] = useState<unknown>(null);
  const staleness = useFreshComparison(answer, setAnswer, comparedWith, setComparedWith);

  const read = async (source: Blob | string) => {
    setAnswer(null);
    setProgress(0);
    const document = store.getState().document;
    const result = await readLogInWorker(createLogWorker, source, document, setProgress);
    setProgress(null);
    setComparedWith(document);
    setAnswer(result);
  };
  const drop = useDropTarget<HTMLDivElement>((e) => {
    const file = e.dataTransfer.files[0];
    if (file) void read(file);
  });
  return (
    <Section title="Training log" id="training-log">
      <p className={HINT}>
        Paste, choose or drop the log of a run you made (Megatron-LM, NeMo, Megatron-Bridge, torchtitan, DeepSpeed, Hugging Face Trainer):
        its steady-state figures beside the prediction, what went wrong step by step, one click to calibrate. Read in your browser; nothing
        leaves it.
      </p>
      <div
        data-testid="log-drop"
        {...drop.handlers}
        className={
          `flex flex-col gap-2 rounded-md border-2 border-dashed p-2 ` +
          `${drop.dragging ? 'border-blue-700 dark:border-blue-300' : 'border-gray-400 dark:border-gray-600'}`
        }
      >
        <PasteBox
          id={id}
          label="Paste a training log, or drop its file here"
          placeholder=" iteration 10/ 1000 | … | elapsed time per iteration (ms): 2500.0 | … | lm loss: 2.5E+00 | …"
          text={text}
          onText={setText}
        />
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className={`${BUTTON} w-fit`}
            disabled={text.trim() === '' || progress !== null}
            onClick={() => {
              void read(text);
            }}
          >
            Read the pasted log
          </button>
          <FilePicker id={id} label="Choose a log file" accept=".log,.txt,.out,.err,text/plain" plain onFile={(f) => void read(f)} />
        </div>
      </div>
      {progress !== null && (
        <progress data-testid="log-progress" aria-label="Reading the log" max={1} value={progress} className="w-full" />
      )}
      {answer && !answer.ok && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {answer.errors.join('; ')}
        </p>
      )}
      {answer?.ok && <Result read={answer} staleness={staleness} />}
    </Section>
  );
}
