/** Awaits a promise that must reject and returns its error (for assertions on `code` and `details`). */
export async function failure(
  promise: Promise<unknown>,
): Promise<Error & { code?: string; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string; details?: Record<string, unknown> };
  }
  throw new Error("expected a refusal");
}
