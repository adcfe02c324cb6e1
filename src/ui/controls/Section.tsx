import type { ReactNode } from 'react';

/** A titled group of controls that folds away (a native <details>: keyboard and screen readers know it). */
export function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`section-${id}`} className="panel-contained rounded-lg border border-gray-300 dark:border-gray-700">
      <details open className="group">
        <summary className="flex cursor-pointer items-center gap-2 rounded-lg p-3 focus-visible:outline-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300">
          <span aria-hidden="true" className="text-xs text-gray-700 transition-transform group-open:rotate-90 dark:text-gray-300">▶</span>
          <h2 id={`section-${id}`} className="text-base font-semibold text-gray-900 dark:text-gray-100">{title}</h2>
        </summary>
        <div className="flex flex-col gap-3 px-3 pb-3">{children}</div>
      </details>
    </section>
  );
}
