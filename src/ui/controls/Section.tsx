import type { ReactNode } from 'react';

/** A titled group of controls. */
export function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`section-${id}`} className="panel-contained flex flex-col gap-4 rounded-lg border border-gray-300 p-4 dark:border-gray-700">
      <h2 id={`section-${id}`} className="text-base font-semibold text-gray-900 dark:text-gray-100">{title}</h2>
      {children}
    </section>
  );
}
