export declare function waitForServer(url: string, ms?: number): Promise<void>;
