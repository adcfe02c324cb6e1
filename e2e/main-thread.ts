// The longest task of the page's main thread in a Chrome trace (browser.startTracing with the
// devtools.timeline categories): wall and CPU (thread) time, in ms. CPU time is what the
// budgets judge: on a shared 2-core machine wall time also counts the waits for a core.

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];

export function longestMainThreadTask(trace: Buffer): { wallMs: number; cpuMs: number } {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`));
  return {
    wallMs: Math.max(0, ...tasks.map((e) => (e.dur ?? 0) / 1000)),
    cpuMs: Math.max(0, ...tasks.map((e) => (e.tdur ?? 0) / 1000)),
  };
}

/**
 * The tag of a test that measures main-thread task lengths: playwright.config.ts runs these in a
 * project of their own after every other test, alone, so that a second worker's page does not
 * lengthen the tasks they time.
 */
export const TIMING = { tag: '@timing' } as const;
