// The value once it has stopped changing for `quietMs`: while a slider is dragged the
// figures follow every move and the charts (the costly part of a render: recharts and
// thousands of timeline blocks) redraw once the input settles.
import { useEffect, useState } from 'react';

export const CHART_SETTLE_MS = 120;

export function useSettledValue<T>(value: T, quietMs = CHART_SETTLE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return undefined;
    const timer = setTimeout(() => setSettled(value), quietMs);
    return () => clearTimeout(timer);
  }, [value, settled, quietMs]);
  return settled;
}
