/** The OPTIMADE fixture provider over real HTTP for its own tests, and reading its JSON:API replies. */
import { afterAll, beforeAll, expect } from "vitest";
import { type OptimadeServer, startOptimadeServer } from "../../../../fixtures/optimade/server.js";

export type Json = Record<string, unknown>;
export type Reply = { status: number; headers: Headers; body: Json };

/** The value at `path` inside parsed JSON (`undefined` when absent). */
export function dig(value: unknown, ...path: (string | number)[]): unknown {
  return path.reduce<unknown>(
    (current, key) =>
      typeof current === "object" && current !== null ? (current as Record<string, unknown>)[key] : undefined,
    value,
  );
}
export const records = (value: unknown): Json[] => value as Json[];

export async function get(url: string, init?: RequestInit): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("json") ? (JSON.parse(text) as Json) : { text };
  return { status: response.status, headers: response.headers, body };
}

export const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
export const ids = (body: Json): string[] => records(body.data).map((entry) => entry.id as string);

export function expectError(result: Reply, status: number, title: string): Json {
  expect(result.status).toBe(status);
  expect(result.headers.get("content-type")).toBe("application/vnd.api+json");
  expect(result.body.data).toBeUndefined();
  expect(dig(result.body, "meta", "api_version")).toMatch(/^1\.\d+\.0$/);
  const [error] = records(result.body.errors);
  expect(error).toMatchObject({ status: String(status), title });
  expect(typeof error?.detail).toBe("string");
  return error!;
}

export interface FixtureProvider {
  /** The running provider (only inside tests and hooks). */
  readonly server: OptimadeServer;
  /** GET a path under the provider's versioned base URL. */
  v1(path: string): Promise<Reply>;
}

/** Call at module level: starts the fixture provider before the file's tests and stops it after them. */
export function fixtureProvider(): FixtureProvider {
  let running: OptimadeServer | undefined;
  beforeAll(async () => {
    running = await startOptimadeServer();
  });
  afterAll(async () => {
    await running?.close();
  });
  const provider: FixtureProvider = {
    get server(): OptimadeServer {
      if (running === undefined) throw new Error("the fixture provider runs only inside tests");
      return running;
    },
    v1: (path) => get(`${provider.server.versionedBaseUrl}${path}`),
  };
  return provider;
}
