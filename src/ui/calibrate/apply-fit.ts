// One calibration from a measured run, whoever measured it (the figures typed in "Calibrate
// from your run", or a training log's steady-state medians): the fit runs in its own worker
// (fit-client.ts), and the fitted scales are written into the document's `calibration`.

import type { StoreApi } from 'zustand/vanilla';
import type { RunMeasurement, ScaleFit } from '../../model/validation/index.ts';
import type { PlannerState } from '../../state/store.ts';
import { createEngineWorker } from '../../worker/start-workers.ts';
import { runFit } from '../../worker/fit-client.ts';
import { formatGiB, formatSeconds } from '../format.ts';

export interface FitStatus {
  readonly busy: boolean;
  readonly lines: readonly string[];
  readonly failed: boolean;
}

export function scaleText(value: unknown): string {
  return typeof value === 'number' ? `×${Number(value.toPrecision(4))}` : '×1';
}

function fitLine(what: string, fit: ScaleFit | null, format: (v: number) => string): string | null {
  if (!fit) return null;
  if (!fit.ok) return `${what}: not fitted: ${fit.reason}.`;
  return `${what} ${scaleText(fit.scale)}: the prediction moves from ${format(fit.predictedBefore)} to ${format(fit.predictedAfter)}.`;
}

/** Fits the calibration to `measurement` for the document as it is now and writes the scales that fitted; the status says what happened. */
export async function fitAndApply(store: StoreApi<PlannerState>, measurement: RunMeasurement): Promise<FitStatus> {
  const document = store.getState().document;
  const result = await runFit(createEngineWorker, document, measurement);
  if (!result.ok) return { busy: false, failed: true, lines: result.errors };
  if (store.getState().document !== document) {
    return { busy: false, failed: true, lines: ['The configuration changed while fitting: fit again for the configuration you measured.'] };
  }
  const { computeEfficiencyScale: compute, memoryOverheadScale: memory } = result.fit;
  if (compute?.ok) store.getState().setField(['calibration', 'computeEfficiencyScale'], compute.scale);
  if (memory?.ok) store.getState().setField(['calibration', 'memoryOverheadScale'], memory.scale);
  const lines = [fitLine('Compute efficiency', compute, formatSeconds), fitLine('Memory overhead', memory, formatGiB)].filter(
    (l): l is string => l !== null,
  );
  return { busy: false, failed: !(compute?.ok ?? true) || !(memory?.ok ?? true), lines };
}
