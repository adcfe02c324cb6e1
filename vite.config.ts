/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { cspOutsideDevServer } from './scripts/vite-csp.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), cspOutsideDevServer()],
  base: './',
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 700 },
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    setupFiles: ['src/testing/fast-check-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
