// The zoomed timeline's window, moved along the step (issue 22, item 12): buttons for the
// fill at the start, the steady state and the cool-down, and a slider for any place in
// between (arrow keys, Page Up/Down, Home/End: a native range input). The whole step stays
// one button away. Only the window's start lives here; the chart draws what it is given.

import { useId } from 'react';
import { BUTTON } from '../buttons.ts';
import { formatSeconds } from '../format.ts';
import { windowStart, type WindowPlace } from './pipelineLayout.ts';

const PLACES: readonly { readonly place: WindowPlace; readonly label: string }[] = [
  { place: 'start', label: 'Start' },
  { place: 'steady', label: 'Steady state' },
  { place: 'cooldown', label: 'Cool-down' },
];
/** Slider steps across the step: fine enough to move a fraction of a window at a time. */
const SLIDER_STEPS = 200;

export function windowText(start: number, window: number, span: number): string {
  return start <= 0
    ? `The first ${formatSeconds(window)} of the ${formatSeconds(span)} step, blocks at full size.`
    : `From ${formatSeconds(start)} to ${formatSeconds(start + window)} of the ${formatSeconds(span)} step, blocks at full size.`;
}

export function TimelineWindow(props: {
  start: number;
  window: number;
  span: number;
  microBatches: number;
  wholeStep: boolean;
  onStart: (start: number) => void;
  onWholeStep: (whole: boolean) => void;
}) {
  const { start, window, span, microBatches, wholeStep, onStart, onWholeStep } = props;
  const id = useId();
  const last = Math.max(0, span - window);
  return (
    <div className="mb-1 flex flex-col gap-1 text-sm text-gray-700 dark:text-gray-300">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p data-testid="pipeline-window">
          {wholeStep ? `The whole step: ${microBatches} micro-batches over ${formatSeconds(span)}.` : windowText(start, window, span)}
        </p>
        <button type="button" className={BUTTON} aria-pressed={wholeStep} onClick={() => onWholeStep(!wholeStep)}>
          {wholeStep ? 'Show the first micro-batches at full size' : `Show the whole step (${microBatches} micro-batches)`}
        </button>
      </div>
      {!wholeStep && (
        <div role="group" aria-label="Move the zoomed window" className="flex flex-wrap items-center gap-2">
          {PLACES.map(({ place, label }) => {
            const at = windowStart(place, span, window);
            return (
              <button
                key={place}
                type="button"
                className={BUTTON}
                aria-pressed={Math.abs(start - at) <= last / SLIDER_STEPS}
                onClick={() => onStart(at)}
              >
                {label}
              </button>
            );
          })}
          <label htmlFor={`${id}-position`} className="ml-2">
            Window position
          </label>
          <input
            id={`${id}-position`}
            type="range"
            min={0}
            max={last}
            step={last / SLIDER_STEPS || 1}
            value={start}
            aria-valuetext={windowText(start, window, span)}
            data-testid="pipeline-window-position"
            className="min-w-32 flex-1 accent-blue-700 dark:accent-blue-300"
            onChange={(e) => onStart(Number(e.target.value))}
          />
        </div>
      )}
    </div>
  );
}
