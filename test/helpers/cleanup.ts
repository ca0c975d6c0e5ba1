/** Per-test cleanups (servers, routers): registered during a test, run after it in reverse order. */
import { afterEach } from "vitest";

export interface Cleanups {
  push(cleanup: () => Promise<void> | void): void;
}

/** Call at module or describe level; returns the list the tests push their cleanups onto. */
export function cleanupAfterEach(): Cleanups {
  const pending: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of pending.splice(0).reverse()) await cleanup();
  });
  return { push: (cleanup) => void pending.push(cleanup) };
}
