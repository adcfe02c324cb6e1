// A row of export buttons ("Export JSON", "Scenarios as CSV", …) in a named group, and the
// status line that says what was saved.

import { BUTTON } from './buttons.ts';

export interface ExportAction {
  readonly label: string;
  readonly run: () => void;
  readonly disabled?: boolean;
}

export function ExportBar(props: { group: string; actions: readonly ExportAction[]; status: string; buttonClass?: string }) {
  const { group, actions, status, buttonClass = BUTTON } = props;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div role="group" aria-label={group} className="flex flex-wrap gap-2">
        {actions.map((action) => (
          <button key={action.label} type="button" className={buttonClass} disabled={action.disabled} onClick={() => action.run()}>
            {action.label}
          </button>
        ))}
      </div>
      <p role="status" className="text-sm text-gray-700 dark:text-gray-300">
        {status}
      </p>
    </div>
  );
}
