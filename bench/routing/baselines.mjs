/**
 * Baseline routers for the routing benchmark (baselines, not the product): (a) lexical token overlap
 * and (b) Okapi BM25 (k1 = 1.2, b = 0.75), both over each endpoint's name and description text only:
 * tool name, endpoint name, tool description and endpoint description. Neither sees fields, semantic
 * IDs, units or qualifiers — that is what such routers index. They use the plain tokenizer SchemaRouter
 * had when they were written (words.mjs, frozen), so the comparison is about the signals used and the
 * baselines never inherit the product's stemming, synonyms or unit vocabularies. Ties: score desc, then route asc.
 * An extra BM25 variant over all surface text (fields, aliases, semantic IDs, units, qualifiers as
 * words) shows how much of the gap is information and how much is typed matching.
 */
import { words as tokenize } from "./words.mjs";

/** Token multiset of a text: the frozen tokenizer applied word by word, so repeats are counted. */
function termsOf(text) {
  return text.split(/\s+/).flatMap((word) => tokenize(word));
}

/** A request flattened to text: baselines get the same information, as words. */
export function requestText(request) {
  return [
    request.query,
    ...(request.fields ?? []),
    ...(request.semanticIds ?? []),
    ...(request.units ?? []),
  ].join(" ");
}

/** Name + description text of an endpoint: tool name, endpoint name, tool and endpoint descriptions. */
function nameText(entry) {
  return [entry.tool.name, entry.endpoint.name, entry.tool.description, entry.endpoint.description].join(" ");
}

/** All text SchemaRouter's surface indexes, flattened (the extra "same information" baseline). */
function surfaceText(entry) {
  const { tool, endpoint } = entry;
  const parts = [
    tool.name,
    tool.namespace,
    tool.provider,
    tool.accessMode,
    tool.description,
    endpoint.name,
    endpoint.description,
  ];
  for (const p of endpoint.parameters) parts.push(p.name, p.description ?? "");
  for (const f of endpoint.fields) {
    parts.push(f.id, ...(f.aliases ?? []), ...f.path.filter((s) => s !== "*"), f.description ?? "");
    parts.push(f.semanticId ?? "", f.unit ?? "", f.dimensions ?? "");
    for (const [k, v] of Object.entries(f.qualifiers ?? {})) parts.push(k, v);
  }
  return parts.join(" ");
}

/** Documents of every endpoint of a registry, in registry order. */
export function documents(registry, text = nameText) {
  return registry.entries().map((entry) => {
    const terms = termsOf(text(entry));
    const tf = new Map();
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    return { route: `${entry.tool.name}.${entry.endpoint.name}`, length: terms.length, tf };
  });
}

function ranked(scored) {
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) =>
      a.score !== b.score ? b.score - a.score : a.route < b.route ? -1 : a.route > b.route ? 1 : 0,
    );
}

/**
 * Lexical baseline: score = |distinct request tokens ∩ document tokens| / |distinct request tokens|.
 * The score is itself the coverage (`present` of `total` request tokens).
 */
export function lexicalRouter(registry) {
  const docs = documents(registry);
  return {
    name: "lexical overlap (baseline)",
    rank(request) {
      const tokens = tokenize(requestText(request));
      if (tokens.length === 0) return [];
      return ranked(
        docs.map((doc) => {
          const present = tokens.filter((t) => doc.tf.has(t)).length;
          return { route: doc.route, score: present / tokens.length, present, total: tokens.length };
        }),
      );
    },
  };
}

/**
 * BM25 baseline (`fullSurface`: over everything SchemaRouter's surface indexes, flattened to words — an
 * extra baseline that gets the same information as the product, without its structure): Σ over distinct request tokens t of idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)),
 * idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)). `present` of `total` request tokens occur.
 */
export function bm25Router(registry, { k1 = 1.2, b = 0.75, fullSurface = false } = {}) {
  const docs = documents(registry, fullSurface ? surfaceText : nameText);
  const n = docs.length;
  const avg = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const df = new Map();
  for (const doc of docs) for (const term of doc.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (t) => {
    const d = df.get(t) ?? 0;
    return Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };
  return {
    name: fullSurface ? "BM25 over all surface text (extra baseline)" : `BM25 k1=${k1} b=${b} (baseline)`,
    rank(request) {
      const tokens = tokenize(requestText(request));
      if (tokens.length === 0) return [];
      return ranked(
        docs.map((doc) => {
          let score = 0;
          let present = 0;
          for (const t of tokens) {
            const tf = doc.tf.get(t);
            if (tf === undefined) continue;
            present++;
            score += (idf(t) * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avg));
          }
          return { route: doc.route, score, present, total: tokens.length };
        }),
      );
    },
  };
}
