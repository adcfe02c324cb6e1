/// <reference types="vite/client" />
// The published runs (validation/published-runs.json, 1.2 MB), loaded only when the
// Validation page asks: a dynamic import, so the file is its own chunk and never part
// of the page's first script or the estimator's start-up. `?raw` keeps the compiler
// from typing the whole document; the engine reads it untrusted (readValidationCases).

import { readValidationCases, type ValidationCase } from '../model/validation/index.ts';

let loading: Promise<readonly ValidationCase[]> | null = null;

export function loadPublishedRuns(): Promise<readonly ValidationCase[]> {
  loading ??= import('../../validation/published-runs.json?raw').then((module) =>
    readValidationCases(JSON.parse(module.default) as unknown),
  );
  return loading;
}
