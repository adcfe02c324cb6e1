// Number formats (Intl, that is ICU) cost a few tens of milliseconds of CPU the first time a
// page makes one: ICU loads and unpacks its locale data. ICU's data and caches belong to the
// renderer process, shared by its threads, so a worker that makes them first takes that cost
// off the main thread: the page's first render then finds them ready (measured in Chromium:
// the main thread's first format 27–37 ms of CPU after a cold start, under 1 ms after a
// worker's). The page waits for it before its first render, at most `waitMs`: the static
// first screen of index.html shows meanwhile (Lighthouse's total blocking time, issue 31 item 6).

/** The longest the first render waits for the formats worker; past it the page makes them itself. */
export const FORMATS_WAIT_MS = 300;

/** Resolves once a worker has made the number formats, or after `waitMs`, or at once where there are no workers. */
export function warmNumberFormats(waitMs = FORMATS_WAIT_MS): Promise<void> {
  if (typeof Worker !== 'function') return Promise.resolve();
  let worker: Worker;
  try {
    worker = new Worker(new URL('./formats.worker.ts', import.meta.url), { type: 'module', name: 'number-formats' });
  } catch {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
      resolve();
    };
    const timer = setTimeout(done, waitMs);
    worker.onmessage = done;
    worker.onerror = done;
  });
}
