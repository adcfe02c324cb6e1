// The longest task of the page's main thread in a Chrome trace (browser.startTracing with the
// devtools.timeline categories): wall and CPU (thread) time, in ms. CPU time is what the
// budgets judge: on a shared 2-core machine wall time also counts the waits for a core.

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { functionName?: string; url?: string; lineNumber?: number; type?: string } };
}

export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];

export interface LongestTask {
  wallMs: number;
  cpuMs: number;
  /** What the task held: its events of 2 ms or more (script by file and line, layout, paint, garbage collection). */
  contents: string;
}

export function longestMainThreadTask(trace: Buffer): LongestTask {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = events.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`));
  const tasks = onMain.filter((e) => e.name === 'RunTask');
  if (tasks.length === 0) return { wallMs: 0, cpuMs: 0, contents: 'no task' };
  const longest = tasks.reduce((a, b) => ((b.tdur ?? 0) > (a.tdur ?? 0) ? b : a));
  return {
    wallMs: Math.max(...tasks.map((e) => (e.dur ?? 0) / 1000)),
    cpuMs: (longest.tdur ?? 0) / 1000,
    contents: describe(longest, onMain),
  };
}

/** The events inside one task that took 2 ms or more, outermost first, for a failure to name its cause. */
function describe(task: TraceEvent, onMain: readonly TraceEvent[]): string {
  const end = task.ts + (task.dur ?? 0);
  const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) >= 2000);
  const words = inside.map((e) => {
    const data = e.args?.data;
    const where = data?.url ? ` ${data.functionName ?? ''} ${data.url.split('/').pop()}:${data.lineNumber ?? ''}` : (data?.type ?? '');
    return `${e.name}${where ? ` ${where.trim()}` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)} ms`;
  });
  return words.slice(0, 12).join('; ') || 'no event of 2 ms or more';
}

/**
 * The tag of a test that measures main-thread task lengths: playwright.config.ts runs these in a
 * project of their own after every other test, alone, so that a second worker's page does not
 * lengthen the tasks they time.
 */
export const TIMING = { tag: '@timing' } as const;
