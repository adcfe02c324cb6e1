// A headline figure as a button that opens its formula: a modal <dialog> (focus
// moves into it, Escape or Close shuts it, focus returns to the figure), labelled by
// its heading. What it shows is computed in a lazily loaded chunk (ExplainContent).

import { Suspense, lazy, useId, useRef, useState, useEffect, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { isExplainedFigure, type ExplainedFigure } from '../../model/explain/index.ts';
import type { EstimateOutput } from '../../model/input/index.ts';
import { BUTTON } from '../buttons.ts';

const ExplainContent = lazy(() => import('./ExplainContent.tsx'));

const TRIGGER =
  'cursor-pointer rounded text-left underline decoration-dotted decoration-2 underline-offset-4 ' +
  'hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ' +
  'dark:hover:bg-gray-800 dark:focus-visible:outline-blue-300';
const DIALOG =
  'm-auto max-h-[85vh] w-[min(52rem,calc(100vw-2rem))] overflow-auto rounded-lg border border-gray-400 bg-white p-5 ' +
  'text-gray-900 shadow-xl backdrop:bg-black/60 dark:border-gray-600 dark:bg-gray-900 dark:text-gray-100';

function ExplainDialog({
  figure,
  label,
  output,
  onClose,
}: {
  figure: ExplainedFigure;
  label: string;
  output: EstimateOutput;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    // No close() on cleanup: unmounting removes the dialog from the top layer, and a close event then would shut a remounted one.
    if (element && !element.open) element.showModal();
  }, []);
  return createPortal(
    <dialog ref={dialog} aria-labelledby={titleId} data-testid="explain-dialog" className={DIALOG} onClose={onClose}>
      <div className="flex items-start justify-between gap-4">
        <h2 id={titleId} className="text-lg font-semibold">
          How “{label}” is computed
        </h2>
        <button type="button" className={BUTTON} onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <Suspense
        fallback={
          <p role="status" className="mt-3 text-sm">
            Loading the formula…
          </p>
        }
      >
        <ExplainContent figure={figure} output={output} />
      </Suspense>
    </dialog>,
    document.body,
  );
}

/** The figure's value; when the figure has a formula view, a button that opens it. */
export function ExplainButton({
  figureId,
  label,
  output,
  children,
}: {
  figureId: string;
  label: string;
  output: EstimateOutput;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  if (!isExplainedFigure(figureId) || output.errors.length > 0) return <>{children}</>;
  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  return (
    <>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="dialog"
        title="Show the formula with these numbers"
        data-explain={figureId}
        className={TRIGGER}
        onClick={() => setOpen(true)}
      >
        {children}
      </button>
      {open && <ExplainDialog figure={figureId} label={label} output={output} onClose={close} />}
    </>
  );
}
