// An anomaly of a training log in words: the log section's list and its charts' captions
// (LogCharts.tsx) say it the same way. Its own module, so the section's first script does
// not carry the charts (recharts), which load once a log is read.

import type { Anomaly, AnomalyKind } from '../../model/log/index.ts';

const KIND_WORDS: Readonly<Record<AnomalyKind, string>> = {
  'loss-nan': 'loss NaN/Inf',
  'loss-spike': 'loss spike',
  'grad-norm-nan': 'grad norm NaN/Inf',
  'grad-norm-spike': 'grad-norm spike',
  'nan-iterations': 'NaN iterations',
  'skipped-iterations': 'skipped steps',
  'throughput-drop': 'throughput drop',
  stall: 'stall',
  'memory-growth': 'memory growth',
};

export const anomalyWords = (a: Anomaly) => `${KIND_WORDS[a.kind]} at step ${a.step}: ${a.detail}`;
