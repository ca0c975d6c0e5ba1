/**
 * Builds one run's RunEvents: contiguous sequence from 0, ISO timestamps that never go back, payloads
 * only when the run includes them. When something listens (a trace store or a stream), each event is
 * validated, appended to the store in order, and only then handed to the listener.
 */

import {
  type RunEvent,
  type RunEventPayloads,
  type RunEventType,
  validateRunEvent,
} from "../traces/events.js";
import type { TraceStore } from "../traces/store.js";

const DELIVERED: Promise<void> = Promise.resolve();

export type RunEventListener = (event: RunEvent) => void;

export class RunEmitter {
  #sequence = 0;
  #lastTime = 0;
  /** The last event's delivery (the shared settled promise until something is emitted). */
  #tail: Promise<void> = DELIVERED;
  #failure: { readonly error: unknown } | undefined;
  #terminal = false;

  constructor(
    /** The run's config: its run id is read when an event is built (a default one is made on first read). */
    private readonly run: { readonly runId: string },
    private readonly store: TraceStore | undefined,
    private readonly listener: RunEventListener | undefined,
  ) {}

  get runId(): string {
    return this.run.runId;
  }

  /**
   * True when something receives the events (a trace store or a stream). When false, `emit` does
   * nothing, so callers skip building event payloads on every call's path.
   */
  get observed(): boolean {
    return this.store !== undefined || this.listener !== undefined;
  }

  /** True once a terminal event (run.end / run.error) was delivered. */
  get terminal(): boolean {
    return this.#terminal;
  }

  /** Emits one event; resolves once the store holds it. A store failure fails this and every later emit. */
  emit<T extends RunEventType>(type: T, payload: RunEventPayloads[T]): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure.error);
    // Nobody observes the run: no event is built (this is on every call's path).
    if (this.store === undefined && this.listener === undefined) return DELIVERED;
    const time = Math.max(Date.now(), this.#lastTime);
    this.#lastTime = time;
    const event = {
      runId: this.runId,
      sequence: this.#sequence++,
      timestamp: new Date(time).toISOString(),
      type,
      ...payload,
    } as unknown as RunEvent;
    const store = this.store;
    const listener = this.listener;
    this.#tail = this.#tail.then(async () => {
      if (this.#failure !== undefined) throw this.#failure.error;
      try {
        const checked = validateRunEvent(event);
        if (store !== undefined) await store.append(checked);
        if (type === "run.end" || type === "run.error") this.#terminal = true;
        listener?.(checked);
      } catch (error) {
        this.#failure = { error };
        throw error;
      }
    });
    return this.#tail;
  }
}
