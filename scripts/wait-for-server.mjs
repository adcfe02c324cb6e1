// The benchmark scripts' one wait for `vite preview`: polls `url` until it answers, or
// throws after `ms` milliseconds.

/** @param {string} url @param {number} [ms] @returns {Promise<void>} */
export async function waitForServer(url, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`vite preview did not answer on ${url}`);
}
