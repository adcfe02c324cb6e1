// Beside the ZeRO stage: a stage that shards nothing on this layout (DP × CP = 1) says
// so, and what would help (issue 22 item 8). The words are the engine's (zero-groups.ts).

import { zeroNoteOf } from '../../state/options.ts';
import { usePlanner } from '../../state/react.ts';
import { HINT } from './fields.tsx';

export function ZeroNote() {
  const note = usePlanner((s) => zeroNoteOf(s.document));
  if (!note) return null;
  return (
    <p className={HINT} data-testid="zero-note" role="note">
      {note}
    </p>
  );
}
