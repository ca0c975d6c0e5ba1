/**
 * The shared-budget step of one attempt (docs/state/postgres.md): reserved after the run's own
 * ExecutionBudget consumed the attempt, with the logical call counted on its first attempt.
 */
import type { CostSubject } from "./budget.js";
import type { RunState } from "./run.js";
import { type BudgetReservation, releaseQuietly, type SharedBudget } from "./state/shared-budget.js";

/** Per logical call: whether the shared budget already counted the call (with its first attempt). */
export interface CallCharge {
  counted: boolean;
}

/**
 * Reserves one attempt of the shared budget, after the run's own ledger consumed it (a refusal
 * gives that back, so a refused attempt consumes nothing anywhere). When the run stops while the
 * store answers, the reservation is released as soon as it arrives.
 */
export async function reserveShared(
  run: RunState,
  shared: SharedBudget,
  subject: CostSubject,
  charged: number,
  charge: CallCharge,
  route: string,
): Promise<BudgetReservation> {
  const pending = shared.reserve(subject, !charge.counted, route);
  let reservation: BudgetReservation;
  try {
    reservation = await run.bound(pending, route);
  } catch (error) {
    run.ledger.refundAttempt(subject, charged);
    pending.then(releaseQuietly, () => undefined);
    throw error;
  }
  charge.counted = true;
  return reservation;
}
