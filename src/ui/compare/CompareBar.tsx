// Pin the current configuration, then change the controls: the pinned one stays
// beside it for comparison. Unpin returns to the single view; Swap makes the pinned
// configuration current again (and pins the one being edited).

import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { BUTTON } from '../buttons.ts';
import { usePinnedEstimate } from './usePinnedEstimate.ts';

export function CompareBar() {
  usePinnedEstimate();
  const store = usePlannerStore();
  const pinned = usePlanner((s) => s.pinned !== null);
  return (
    <div role="group" aria-label="Compare configurations" className="flex flex-wrap items-center gap-2 text-sm text-gray-800 dark:text-gray-200">
      {pinned ? (
        <>
          <span className="font-medium">A is pinned; the controls edit B.</span>
          <button type="button" className={BUTTON} onClick={() => store.getState().unpin()}>Unpin</button>
          <button type="button" className={BUTTON} onClick={() => store.getState().swapPinned()}>Swap A and B</button>
          <button type="button" className={BUTTON} onClick={() => store.getState().pin()}>Pin current instead</button>
        </>
      ) : (
        <>
          <button type="button" className={BUTTON} onClick={() => store.getState().pin()}>Pin for comparison</button>
          <span>Pins this configuration; change the controls to compare another side by side.</span>
        </>
      )}
    </div>
  );
}
