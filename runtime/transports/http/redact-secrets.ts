/**
 * Remote text that may echo a credential back: an error body that repeats the request's headers or
 * query is sampled into messages and details only after every trusted credential value in it is
 * replaced (docs/trust-model.md §7: runtime secrets never become model-visible).
 */

/** Credential values shorter than this are not searched for (they would match ordinary text). */
const MIN_SECRET_LENGTH = 4;

export function secretsOf(...groups: readonly (Iterable<string> | undefined)[]): readonly string[] {
  const out = new Set<string>();
  for (const group of groups) {
    for (const value of group ?? []) {
      if (value.length >= MIN_SECRET_LENGTH) out.add(value);
      // A bearer or basic credential also travels without its scheme word.
      const token = value.replace(/^(?:bearer|basic|token)\s+/i, "");
      if (token !== value && token.length >= MIN_SECRET_LENGTH) out.add(token);
    }
  }
  // Longest first, so a token inside a longer value is replaced with it.
  return [...out].sort((a, b) => b.length - a.length);
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join("[redacted]");
  return out;
}
