// Series for a picture: at most `maxPoints` a series, evenly spread over the steps, and every
// step an anomaly names kept (a thinned chart must still show the spike it marks).

import type { LogReport, SeriesName } from './types.ts';

export const CHART_POINTS = 600;

export function thinSeries(report: LogReport, maxPoints = CHART_POINTS): LogReport['series'] {
  const keep = new Set(report.anomalies.map((a) => a.step));
  const out = {} as Record<SeriesName, ReadonlyArray<readonly [number, number]>>;
  for (const [name, points] of Object.entries(report.series) as Array<[SeriesName, ReadonlyArray<readonly [number, number]>]>) {
    if (points.length <= maxPoints) {
      out[name] = points;
      continue;
    }
    const stride = points.length / maxPoints;
    const picked: Array<readonly [number, number]> = [];
    let next = 0;
    points.forEach((p, i) => {
      if (i >= next || keep.has(p[0]) || i === points.length - 1) {
        picked.push(p);
        if (i >= next) next += stride;
      }
    });
    out[name] = picked;
  }
  return out;
}
