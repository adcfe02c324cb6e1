// The Validation page's slot in the first script: everything else about it (its
// table, charts, and the published runs themselves) loads only when it is opened.

import { Suspense, lazy } from 'react';

const ValidationPage = lazy(() => import('./ValidationPage.tsx'));

export function ValidationRoute() {
  return (
    <Suspense
      fallback={
        <p role="status" className="p-4 text-sm text-gray-800 dark:text-gray-200">
          Loading the Validation page…
        </p>
      }
    >
      <ValidationPage />
    </Suspense>
  );
}
