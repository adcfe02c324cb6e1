// "Calibrate from your run": the user enters the step time and/or peak memory they
// measured for the current configuration; a worker fits the two calibration
// multipliers (model/fit-run.ts) and they are written into the document's
// `calibration` field, so every other layout, the search and the share link use them.
// Clearing removes the field: back to the published-runs calibration.

import { useId, useState } from 'react';
import type { RunMeasurement } from '../../model/validation/index.ts';
import { getAt } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { BUTTON } from '../buttons.ts';
import { HINT } from '../controls/fields.tsx';
import { TypedNumberFields, type TypedNumber } from '../controls/SettingField.tsx';
import { Section } from '../controls/Section.tsx';
import { formatGiB, formatSeconds } from '../format.ts';
import { SETTLE_MS, useSettledValue } from '../useSettledValue.ts';
import { GiB } from '../../model/input/index.ts';
import { fitAndApply, scaleText, type FitStatus } from './apply-fit.ts';

/** A positive number typed by the user, or undefined when the box is empty; NaN when it is not a number. */
function measured(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed.replace(/[,_\s]/g, ''));
  return Number.isFinite(value) && value > 0 ? value : NaN;
}

function CurrentCalibration() {
  const store = usePlannerStore();
  const compute = usePlanner((s) => getAt(s.document, ['calibration', 'computeEfficiencyScale']));
  const memory = usePlanner((s) => getAt(s.document, ['calibration', 'memoryOverheadScale']));
  const calibrated = compute !== undefined || memory !== undefined;
  return (
    <div className="flex flex-col gap-2 text-sm text-gray-900 dark:text-gray-100">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <ScaleRow name="Compute efficiency" testId="calibration-compute-scale" scale={compute} />
        <ScaleRow name="Memory overhead" testId="calibration-memory-scale" scale={memory} />
      </dl>
      {calibrated && (
        <button type="button" className={`${BUTTON} w-fit`} onClick={() => store.getState().setField(['calibration'], undefined)}>
          Clear calibration
        </button>
      )}
    </div>
  );
}

/** One calibrated multiplier, and where it comes from. */
function ScaleRow({ name, testId, scale }: { name: string; testId: string; scale: unknown }) {
  return (
    <>
      <dt>{name}</dt>
      <dd data-testid={testId} data-value={typeof scale === 'number' ? scale : 1} className="font-semibold tabular-nums">
        {scaleText(scale)} {scale === undefined ? '(published runs)' : '(fitted to your run)'}
      </dd>
    </>
  );
}

/** What the person measured on their run, as typed. */
const MEASURED: readonly TypedNumber<'step' | 'memory'>[] = [
  { key: 'step', suffix: 'step', label: 'Measured step time (s)', hint: 'Seconds per optimizer step, steady state', inputMode: 'decimal' },
  {
    key: 'memory',
    suffix: 'memory',
    label: 'Measured peak memory (GiB)',
    hint: 'Most loaded GPU, as nvidia-smi shows it (MiB ÷ 1024)',
    inputMode: 'decimal',
  },
];

export function CalibrateSection() {
  const store = usePlannerStore();
  const id = useId();
  // The prediction sentence follows once the input settles, not on every step of a dragged slider.
  const output = useSettledValue(
    usePlanner((s) => s.output),
    SETTLE_MS.rest,
  );
  const [stepText, setStepText] = useState('');
  const [memoryText, setMemoryText] = useState('');
  const [status, setStatus] = useState<FitStatus | null>(null);

  const fit = async () => {
    const stepSeconds = measured(stepText);
    const peakGiB = measured(memoryText);
    if (Number.isNaN(stepSeconds) || Number.isNaN(peakGiB) || (stepSeconds === undefined && peakGiB === undefined)) {
      setStatus({
        busy: false,
        failed: true,
        lines: ['Enter a measured step time in seconds, a peak memory in GiB, or both, as positive numbers.'],
      });
      return;
    }
    const measurement: RunMeasurement = {
      ...(stepSeconds === undefined ? {} : { stepSeconds }),
      ...(peakGiB === undefined ? {} : { peakMemoryBytes: peakGiB * GiB }),
    };
    setStatus({ busy: true, failed: false, lines: ['Fitting to your run…'] });
    setStatus(await fitAndApply(store, measurement));
  };

  const predicted = output?.throughput
    ? `The planner predicts ${formatSeconds(output.throughput.stepSeconds)} per step and ${formatGiB(output.memory.perGpu.total)} on the most loaded GPU.`
    : '';
  return (
    <Section title="Calibrate from your run" id="calibrate">
      <p className={HINT}>
        Ran this configuration? Enter what you measured: the planner fits its compute efficiency and memory overhead to your run and applies
        them to every layout you try, in the share link too. {predicted}
      </p>
      <form
        className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void fit();
        }}
      >
        <TypedNumberFields
          id={id}
          fields={MEASURED}
          values={{ step: stepText, memory: memoryText }}
          onChange={(key, text) => (key === 'step' ? setStepText(text) : setMemoryText(text))}
        />
        <button type="submit" className={`${BUTTON} w-fit`} disabled={status?.busy ?? false}>
          Fit to my run
        </button>
      </form>
      <div
        role="status"
        data-testid="calibration-status"
        className={`text-sm ${status?.failed ? 'text-red-700 dark:text-red-300' : 'text-gray-800 dark:text-gray-200'}`}
      >
        {status?.lines.map((line, i) => (
          <p key={i}>{line}</p>
        ))}
      </div>
      <CurrentCalibration />
    </Section>
  );
}
