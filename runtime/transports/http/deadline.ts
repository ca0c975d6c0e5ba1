/**
 * A request's abort signal: the call's signal, also aborted after `timeoutMs`
 * (docs/runtime/transports.md). The timer is held here, not by an inline `AbortSignal.timeout()`:
 * `AbortSignal.any()` holds its sources weakly, so a timeout signal nothing else references can be
 * garbage-collected and never fire (a stalled body then hangs the call). Used by the paged GET
 * transports (OPTIMADE, OData).
 */
export function deadlineSignal(
  callSignal: AbortSignal,
  timeoutMs: number,
): { signal: AbortSignal; release(): void } {
  const deadline = new AbortController();
  const timer = setTimeout(() => {
    deadline.abort(new DOMException(`The request timed out after ${timeoutMs} ms.`, "TimeoutError"));
  }, timeoutMs);
  timer.unref();
  return { signal: AbortSignal.any([callSignal, deadline.signal]), release: () => clearTimeout(timer) };
}
