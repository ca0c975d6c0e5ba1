/**
 * Routing-quality metrics over labelled cases, and the held-out threshold rule shared by every method.
 *
 * A case has `needs` (one per requested datum) and `required[i]`, the routes that answer need i.
 * required-tool recall@k = mean over supported cases of (needs with an answering route in the top k
 * returned) / (needs). A top-1 false route: a supported case whose first returned route answers no
 * need, or an unsupported case that returns any route. Rejection: an unsupported case returns nothing.
 */

/** SchemaRouter's rejection setting, fixed a priori (never tuned): half the request tokens on the candidate. */
export const A_PRIORI = Object.freeze({ minCoverage: 0.5, minScore: 0 });
/** Candidates returned per request. */
export const K = 5;
/** Rejection settings, in report order: the product default first (see methods.mjs). */
export const SETTINGS = Object.freeze(["default", "none", "a priori", "held-out"]);

/**
 * Whether a rejection is explained: the method says what no endpoint covers (a non-empty `uncovered`
 * list) and every item it names occurs in the request as written. `undefined` when not a rejection or
 * when the method gives no explanation at all.
 */
export function explained(request, result) {
  if (result === undefined || !result.rejected || result.uncovered === null) return undefined;
  const text = JSON.stringify(request).toLowerCase();
  return (
    result.uncovered.length > 0 &&
    result.uncovered.every((u) => typeof u.concept === "string" && text.includes(u.concept.toLowerCase()))
  );
}

/**
 * Per-case outcome of one method's returned routes (best first, already thresholded, at most 5);
 * `result` (the explain() result of the default setting) adds whether a rejection is explained.
 */
export function outcome(testCase, routes, result) {
  const why = explained(testCase.request, result);
  if (!testCase.supported) return { supported: false, rejected: routes.length === 0, explained: why };
  const hits = (k) =>
    testCase.required.filter((answering) => routes.slice(0, k).some((r) => answering.includes(r))).length /
    testCase.required.length;
  const top = routes[0];
  return {
    supported: true,
    rejected: routes.length === 0,
    explained: why,
    top1Wrong: top !== undefined && !testCase.required.some((answering) => answering.includes(top)),
    recall: { 1: hits(1), 3: hits(3), 5: hits(5) },
  };
}

const mean = (values) =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;

/** Aggregates outcomes into the reported rates (fractions 0..1). */
export function aggregate(outcomes) {
  const supported = outcomes.filter((o) => o.supported);
  const unsupported = outcomes.filter((o) => !o.supported);
  const routedUnsupported = unsupported.filter((o) => !o.rejected).length;
  const wrongSupported = supported.filter((o) => o.top1Wrong).length;
  return {
    cases: outcomes.length,
    supported: supported.length,
    unsupported: unsupported.length,
    recall1: mean(supported.map((o) => o.recall[1])),
    recall3: mean(supported.map((o) => o.recall[3])),
    recall5: mean(supported.map((o) => o.recall[5])),
    rejection: mean(unsupported.map((o) => (o.rejected ? 1 : 0))),
    overRejection: mean(supported.map((o) => (o.rejected ? 1 : 0))),
    falseRouteSupported: mean(supported.map((o) => (o.top1Wrong ? 1 : 0))),
    falseRouteUnsupported: mean(unsupported.map((o) => (o.rejected ? 0 : 1))),
    falseRouteOverall:
      outcomes.length === 0 ? Number.NaN : (wrongSupported + routedUnsupported) / outcomes.length,
    explained: mean(outcomes.filter((o) => o.explained !== undefined).map((o) => (o.explained ? 1 : 0))),
  };
}

/**
 * The held-out rule: on calibration cases (raw rankings, no threshold), pick the score threshold t
 * ("keep candidates scoring strictly above t") that maximizes balanced accuracy =
 * ½·(supported cases whose top-1 answers a need) + ½·(unsupported cases with nothing above t).
 * Candidates: 0 and every distinct top-1 score; ties go to the smallest t.
 */
export function calibrateThreshold(cases, rankings) {
  const tops = cases.map((c, i) => ({ c, top: rankings[i][0] }));
  const thresholds = [0, ...new Set(tops.filter((t) => t.top !== undefined).map((t) => t.top.score))].sort(
    (a, b) => a - b,
  );
  const supported = tops.filter((t) => t.c.supported);
  const unsupported = tops.filter((t) => !t.c.supported);
  let best = { threshold: 0, objective: Number.NEGATIVE_INFINITY };
  for (const threshold of thresholds) {
    const correct = supported.filter(
      (t) =>
        t.top !== undefined &&
        t.top.score > threshold &&
        t.c.required.some((answering) => answering.includes(t.top.route)),
    ).length;
    const rejected = unsupported.filter((t) => t.top === undefined || !(t.top.score > threshold)).length;
    const objective =
      0.5 * (correct / Math.max(1, supported.length)) + 0.5 * (rejected / Math.max(1, unsupported.length));
    if (objective > best.objective) best = { threshold, objective };
  }
  return best;
}

/** Two folds, stratified by supported/unsupported, from a seeded shuffle. */
export function folds(cases, rand) {
  const assign = new Array(cases.length);
  for (const supported of [true, false]) {
    const idx = cases.map((c, i) => (c.supported === supported ? i : -1)).filter((i) => i >= 0);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    idx.forEach((caseIndex, position) => {
      assign[caseIndex] = position % 2;
    });
  }
  return assign;
}
