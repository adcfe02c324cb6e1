/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { cspOutsideDevServer } from './scripts/vite-csp.ts';
import { absolutePreviewUrls } from './scripts/vite-og.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), cspOutsideDevServer(), absolutePreviewUrls(process.env['PLANNER_URL'])],
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    // The engine's modules only declare things: a wing's index.ts re-exports all of it, and
    // what a chunk does not use must not ride along (src/model has no import-time effects).
    rollupOptions: { treeshake: { moduleSideEffects: (id: string) => !/[\\/]src[\\/](model|presets)[\\/]/.test(id) } },
  },
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    setupFiles: ['src/testing/fast-check-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: one worker on the 2-core CI machine. At least two keep both of
    // its cores busy; a larger machine keeps the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
