import type { Browser } from '@playwright/test';
export declare function waitForServer(url: string, ms?: number): Promise<void>;
export declare function openBenchBrowser(url: string): Promise<Browser>;
export declare function median(values: readonly number[]): number;
