// Pin the current configuration as a scenario, then change the controls: the pinned
// ones stay beside it in the scenario table (up to MAX_PINS, carried in the link).
// "Remove all pins" returns to the single view; each pin's own Remove and Apply sit in
// the table.

import { MAX_PINS } from '../../state/compare.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { BUTTON } from '../buttons.ts';
import { usePinnedEstimate } from './usePinnedEstimate.ts';

export function CompareBar() {
  usePinnedEstimate();
  const store = usePlannerStore();
  const count = usePlanner((s) => s.pinned.length);
  const full = count >= MAX_PINS;
  return (
    <div
      role="group"
      aria-label="Compare configurations"
      className="flex flex-wrap items-center gap-2 text-sm text-gray-800 dark:text-gray-200"
    >
      <button type="button" className={`${BUTTON} disabled:opacity-60`} disabled={full} onClick={() => store.getState().pin()}>
        Pin for comparison
      </button>
      {count > 0 ? (
        <>
          <span data-testid="pin-count">
            {full
              ? `${count} of ${MAX_PINS} pinned: remove one to pin another.`
              : `${count} of up to ${MAX_PINS} pinned; the controls edit the current configuration.`}
          </span>
          <button type="button" className={BUTTON} onClick={() => store.getState().unpinAll()}>
            Remove all pins
          </button>
        </>
      ) : (
        <span>Pins this configuration as a scenario; change the controls to compare others side by side.</span>
      )}
    </div>
  );
}
