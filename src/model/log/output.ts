// The JSON `npm run log` prints (interchange spec, "Command line"): the report, and with a
// document its "predicted" and "ratio" (plus "mismatch" when the log is of another run).

import type { LogComparison } from './compare.ts';
import type { LogReport } from './types.ts';

export function logOutput(report: LogReport, comparison?: LogComparison): Record<string, unknown> {
  const out: Record<string, unknown> = {
    framework: report.framework,
    steps: report.steps,
    steady: report.steady,
    measured: report.measured,
    series: report.series,
    anomalies: report.anomalies,
    warnings: report.warnings,
    facts: report.facts,
  };
  if (comparison) {
    out.predicted = comparison.predicted;
    out.ratio = comparison.ratio;
    if (comparison.mismatch.length > 0) {
      out.mismatch = comparison.mismatch;
      out.warnings = [...report.warnings, `not compared: the log is of another run than the document (${comparison.mismatch.join('; ')})`];
    }
    if (comparison.errors.length > 0) out.errors = comparison.errors;
  }
  return out;
}
