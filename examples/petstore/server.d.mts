// Types of server.mjs for TypeScript callers (tests and the example app).
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

export interface PetstoreServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly pets: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

export function startPetstoreServer(options?: { port?: number; token?: string }): Promise<PetstoreServer>;
