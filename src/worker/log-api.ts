// The one object the log worker exposes (comlink): a training log read in slices off the
// file the user chose or dropped (or the text pasted), with progress, then compared with the
// page's document. The page sees it only as a type.

import { compareWithDocument, LogReader, thinSeries, type LogComparison, type LogReport } from '../model/log/index.ts';

/** Bytes read between two progress reports (and the largest slice held at once). */
export const LOG_SLICE_BYTES = 4 * 1024 * 1024;
/** The largest log read: past any training log a browser tab should hold. */
export const MAX_LOG_BYTES = 1024 * 1024 * 1024;

export type LogAnswer =
  | { readonly ok: true; readonly report: LogReport; readonly comparison: LogComparison }
  | { readonly ok: false; readonly errors: readonly string[] };

async function readInto(reader: LogReader, source: Blob | string, progress: (fraction: number) => void): Promise<void> {
  if (typeof source === 'string') {
    for (let i = 0; i < source.length; i += LOG_SLICE_BYTES) {
      reader.push(source.slice(i, i + LOG_SLICE_BYTES));
      progress(Math.min(1, (i + LOG_SLICE_BYTES) / source.length));
    }
    return;
  }
  const decoder = new TextDecoder();
  for (let at = 0; at < source.size; at += LOG_SLICE_BYTES) {
    const bytes = await source.slice(at, at + LOG_SLICE_BYTES).arrayBuffer();
    reader.push(decoder.decode(bytes, { stream: true }));
    progress(Math.min(1, (at + LOG_SLICE_BYTES) / source.size));
  }
  reader.push(decoder.decode());
}

export type CompareAnswer =
  { readonly ok: true; readonly comparison: LogComparison } | { readonly ok: false; readonly errors: readonly string[] };

export const logApi = {
  /** A log already read compared again with `document` (the page's configuration changed since): the prediction and the mismatch only. */
  compare(report: LogReport, document: unknown): CompareAnswer {
    try {
      return { ok: true, comparison: compareWithDocument(report, document) };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, errors: [`the log could not be compared (${message.slice(0, 200)})`] };
    }
  },

  /** Reads the log, reports the share read as it goes, and compares it with `document` (the page's, untrusted). */
  async read(source: Blob | string, document: unknown, progress: (fraction: number) => void = () => {}): Promise<LogAnswer> {
    try {
      const size = typeof source === 'string' ? source.length : source.size;
      if (size > MAX_LOG_BYTES)
        return { ok: false, errors: [`the log is ${(size / 1e9).toFixed(1)} GB: the page reads logs up to ${MAX_LOG_BYTES / 1e9} GB`] };
      const reader = new LogReader();
      await readInto(reader, source, progress);
      const report = reader.end();
      const comparison = compareWithDocument(report, document);
      return { ok: true, report: { ...report, series: thinSeries(report) }, comparison };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, errors: [`the log could not be read (${message.slice(0, 200)})`] };
    }
  },
};

export type LogApi = typeof logApi;
