// Messages about the page itself: a link that could not be read, a restarted worker.

import { usePlanner, usePlannerStore } from '../state/react.ts';
import { BUTTON } from './buttons.ts';

export function Notices() {
  const store = usePlannerStore();
  const linkError = usePlanner((s) => s.linkError);
  const engineNotice = usePlanner((s) => s.engineNotice);
  return (
    <>
      {linkError && (
        <div
          role="alert"
          className={
            'flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-700 bg-amber-50 p-3 ' +
            'text-sm text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50'
          }
        >
          <p>{linkError}</p>
          <button type="button" className={BUTTON} onClick={() => store.getState().setLinkError(null)}>
            Dismiss
          </button>
        </div>
      )}
      {engineNotice && (
        <div
          role="status"
          className={
            'flex flex-wrap items-center justify-between gap-2 rounded-lg border border-blue-700 bg-blue-50 p-3 text-sm ' +
            'text-blue-950 dark:border-blue-400 dark:bg-blue-950 dark:text-blue-50'
          }
        >
          <p>{engineNotice}</p>
          <button type="button" className={BUTTON} onClick={() => store.getState().dismissEngineNotice()}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}
