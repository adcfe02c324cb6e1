// Under "This configuration cannot run": the nearest values that make it run, one click
// each (ux.md principle 12). The values come from the engine (model/input/cures.ts);
// this only draws them and applies the one clicked.

import { useMemo } from 'react';
import { withFieldChanges } from '../../state/doc.ts';
import { layoutCuresOf } from '../../state/options.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { BUTTON } from '../buttons.ts';

export function CureButtons() {
  const store = usePlannerStore();
  const document = usePlanner((s) => s.document);
  const cures = useMemo(() => layoutCuresOf(document), [document]);
  if (cures.length === 0) return null;
  return (
    <div className="mt-2" data-testid="cures">
      <p>Nearest values that run (one click each):</p>
      <ul className="mt-1 flex flex-wrap gap-2">
        {cures.map((cure) => (
          <li key={cure.label}>
            <button
              type="button"
              className={BUTTON}
              onClick={() => store.getState().replaceDocument(withFieldChanges(store.getState().document, cure.changes))}
            >
              {cure.label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
