// The one object the estimator worker exposes (comlink). The page sees it only as a
// type (`import type { EngineApi }`, `wrap<EngineApi>()`), so the engine's code is
// bundled into the worker and never into the page's first script.

import { estimate, invalidOutput } from '../model/estimate.ts';
import { parseDocument } from '../model/input/index.ts';
import { fitSuggestions, type FitSuggestions } from '../model/search/index.ts';
import { fitRunDocument, type RunFitResult, type RunMeasurement } from '../model/validation/index.ts';
import type { EstimateOutput } from '../model/input/index.ts';
import { caseResult, type CaseResult } from '../model/validation/index.ts';
import { loadPublishedRuns } from './published-runs.ts';
import { emptySweep, type SeqLenHold, sweepDocument, type SweepResult } from '../model/sweep/index.ts';

/** One batch of validated published runs, and how many there are in all. */
export interface ValidationBatch {
  readonly total: number;
  readonly cases: readonly CaseResult[];
}

/** The fixes for a run that does not fit, or why there are none to compute. */
export type FitSuggestionsAnswer = ({ readonly ok: true } & FitSuggestions) | { readonly ok: false; readonly errors: readonly string[] };

/** The page's trade-off panel: the chosen knob's curve and the checkpoint-interval curve (sweep.ts), without timelines. */
export interface TradeoffAnswer {
  readonly knob: SweepResult;
  readonly checkpoint: SweepResult;
}

/**
 * `compute()`, or, should it throw, `failure` of a sentence that names what failed. The
 * engine promises not to throw on any input; if it ever does, the page still gets a value
 * it can show, and comlink never carries an exception across.
 */
function guarded<T>(compute: () => T, what: string, failure: (message: string) => T): T {
  try {
    return compute();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return failure(`engine: ${what} (${message.slice(0, 200)})`);
  }
}

export const engineApi = {
  /** The engine's estimate for an untrusted interchange document; errors come back as field-named values, never as exceptions. */
  estimate(document: unknown): EstimateOutput {
    return guarded(
      () => estimate(document),
      'failed on this configuration',
      (message) => invalidOutput([message], []),
    );
  },

  /** Cases start … start + count − 1 of validation/published-runs.json with the engine's predictions (validate.ts); batches let the page show progress. */
  async validate(start: number, count: number): Promise<ValidationBatch> {
    const cases = await loadPublishedRuns();
    return { total: cases.length, cases: cases.slice(start, start + count).map(caseResult) };
  },

  /**
   * The changes that make a run that does not fit fit, in the order a person tries them, priced in tokens/s
   * and days (fit-suggestions.ts); `layouts: false` for the quick knob fixes alone, without the layout searches.
   */
  fitSuggestions(document: unknown, layouts = true): FitSuggestionsAnswer {
    return guarded(
      (): FitSuggestionsAnswer => {
        const parsed = parseDocument(document);
        return parsed.ok ? { ok: true, ...fitSuggestions(parsed.config, { layouts }) } : { ok: false, errors: parsed.errors };
      },
      'the fixes could not be computed',
      (message) => ({ ok: false, errors: [message] }),
    );
  },

  /** One knob's curve and the checkpoint curve for this document; errors come back as values. */
  tradeoffs(document: unknown, knob: unknown, seqLenHold?: SeqLenHold): TradeoffAnswer {
    const sweep = (k: unknown) =>
      guarded(
        () => sweepDocument(document, k, { timeline: false, ...(seqLenHold ? { seqLenHold } : {}) }),
        'the curve could not be computed',
        (message) => emptySweep(null, String(k), [message]),
      );
    const curve = sweep(knob);
    return { knob: curve, checkpoint: knob === 'checkpointInterval' ? curve : sweep('checkpointInterval') };
  },

  /** The calibration multipliers that make the engine reproduce a measured run of this document (fit-run.ts). */
  fitRun(document: unknown, measurement: RunMeasurement): RunFitResult {
    return guarded(
      () => fitRunDocument(document, measurement),
      'the fit failed on this configuration',
      (message) => ({ ok: false, errors: [message] }),
    );
  },
};

export type EngineApi = typeof engineApi;
