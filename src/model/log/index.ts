// log/: "what did my run actually do?". Reads a training log of Megatron-LM / NeMo /
// Megatron-Bridge, torchtitan, DeepSpeed or the Hugging Face Trainer, line by line
// (lines.ts), into per-step series, the steady-state medians after warm-up (analyze.ts),
// the anomalies with the rule that flagged each (anomalies.ts), and the comparison with
// the planner's estimate for a document (compare.ts). Pure and DOM-free; never throws.
// This file is the wing's one public entry.

export { LogReader, readLog } from './reader.ts';
export { compareWithDocument, type LogComparison } from './compare.ts';
export { logOutput } from './output.ts';
export { CHART_POINTS, thinSeries } from './thin.ts';
export {
  type Anomaly,
  type AnomalyKind,
  type LogFacts,
  type LogFramework,
  type LogReport,
  type Measured,
  MEASURED_FIGURES,
  type MeasuredFigure,
  MEMORY_METRIC_ORDER,
  MEMORY_METRICS,
  type MemoryMetric,
  SERIES_NAMES,
  type SeriesName,
  type StepRecord,
} from './types.ts';
export { type SyntheticLog, syntheticMegatronLines, syntheticMegatronLog } from './synthetic.ts';
