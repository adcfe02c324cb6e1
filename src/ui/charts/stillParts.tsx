// recharts parts that a chart's redraw leaves alone unless what they draw changes.
//
// A ReferenceLine or ReferenceArea registers itself in its chart's store in an effect without
// dependencies: each render of its own removes and re-adds it, and each of those two dispatches
// makes every selector of the chart run again (recharts 3.11, cartesian/ReferenceLine.js
// ReportReferenceLine). Memoized, a mark that a redraw passes the same props stays registered:
// give it stable props (primitives, module constants, memoized labels).
//
// A Line measures its path (SVGPathElement.getTotalLength) on every render for its drawing
// animation (cartesian/Line.js CurveWithAnimation), which forces a style and layout pass of the
// whole page in the middle of the chart's redraw; a still line has no animation to measure for.

import { memo } from 'react';
import { Curve, ReferenceArea, ReferenceLine, type LineDrawShapeProps } from 'recharts';

export const StillReferenceLine = memo(ReferenceLine);
export const StillReferenceArea = memo(ReferenceArea);

/**
 * recharts' own line shape (LineDrawShape) as it draws a line that does not animate, without the handle to its path that the
 * animation measures.
 */
function stillCurve(props: LineDrawShapeProps) {
  // The animation's props stay out of the path, as LineDrawShape keeps them.
  const {
    pathRef: _measured,
    animationElapsedTime: _t,
    isAnimating: _a,
    isEntrance: _e,
    visibleLength: _v,
    connectNulls,
    strokeDasharray,
    ...curve
  } = props;
  const dashes = strokeDasharray == null ? {} : { strokeDasharray: String(strokeDasharray) };
  return <Curve {...curve} {...dashes} connectNulls={connectNulls ?? false} />;
}

/** A curve drawn once, 2 px wide: no animation (every redraw would replay it), no dot under the pointer, no path measured. */
export const STILL_LINE = { strokeWidth: 2, isAnimationActive: false, activeDot: false, shape: stillCurve } as const;
