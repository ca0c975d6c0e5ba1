/**
 * Request intent from its verbs (docs/runtime/retrieval-and-planning.md, "Intent"): a fixed,
 * documented list of read, write and destructive verbs. Intent is a ranking signal matched against an
 * endpoint's locked effect; it never filters and never grants anything (only `effects` filters).
 */

export type Intent = "read" | "write" | "destructive";

/** Verbs asking to read. A request naming no verb at all ("star count of a repository") reads too. */
export const READ_VERBS: readonly string[] = [
  "get",
  "list",
  "show",
  "find",
  "fetch",
  "read",
  "retrieve",
  "lookup",
  "look",
  "search",
  "count",
  "view",
  "see",
  "check",
  "download",
  "describe",
  "display",
  "inspect",
  "browse",
  "query",
  "give",
  "tell",
];

/** Verbs asking to change something. */
export const WRITE_VERBS: readonly string[] = [
  "create",
  "add",
  "update",
  "edit",
  "modify",
  "change",
  "set",
  "put",
  "post",
  "send",
  "submit",
  "upload",
  "rename",
  "move",
  "transfer",
  "star",
  "follow",
  "watch",
  "fork",
  "merge",
  "approve",
  "assign",
  "invite",
  "enable",
  "disable",
  "lock",
  "replace",
  "register",
  "start",
  "stop",
  "cancel",
  "rerun",
  "trigger",
  "dispatch",
  "publish",
  "write",
  "save",
  "mark",
  "label",
  "comment",
  "reply",
  "accept",
  "block",
  "archive",
  "pin",
  "react",
  "import",
  "generate",
  "install",
  "make",
  "open",
  "close",
  "reopen",
  "request",
  "run",
];

/** Verbs asking to delete or revoke. */
export const DESTRUCTIVE_VERBS: readonly string[] = [
  "delete",
  "remove",
  "destroy",
  "erase",
  "purge",
  "drop",
  "revoke",
  "uninstall",
  "clear",
  "wipe",
  "unstar",
  "unfollow",
  "unwatch",
  "unblock",
  "unlock",
  "unpin",
  "unassign",
  "reject",
];

/**
 * Verbs that are nouns as often ("star count", "watch list", "open issues"): they count only as the
 * request's first word followed by a determiner, a pronoun or nothing ("star a repository").
 */
const NOUN_LIKE: ReadonlySet<string> = new Set([
  "star",
  "watch",
  "follow",
  "fork",
  "label",
  "comment",
  "lock",
  "pin",
  "block",
  "mark",
  "set",
  "post",
  "open",
  "close",
  "request",
  "run",
  "start",
  "stop",
  "change",
  "count",
  "check",
  "view",
  "drop",
  "clear",
  "react",
  "reply",
  "query",
  "make",
  "put",
  "move",
  "transfer",
]);

const DETERMINERS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "the",
  "this",
  "that",
  "these",
  "those",
  "my",
  "our",
  "your",
  "his",
  "her",
  "their",
  "its",
  "all",
  "every",
  "each",
  "some",
  "it",
  "them",
  "me",
  "us",
  "him",
  "someone",
]);

/** Words a request may open with before its verb ("please", "I want to", "can you"). */
const LEAD_INS: ReadonlySet<string> = new Set([
  "please",
  "i",
  "we",
  "want",
  "need",
  "would",
  "like",
  "to",
  "can",
  "could",
  "you",
  "let",
  "lets",
  "help",
  "me",
  "us",
  "just",
  "now",
  "then",
  "and",
  "what",
  "which",
  "how",
  "who",
  "when",
  "where",
  "is",
  "are",
  "does",
  "do",
  "did",
  "should",
  "shall",
  "will",
  "may",
]);

/**
 * Lead-ins after which only a verb can follow ("how do I set …", "I need to open …", "please
 * close …"): there a word that is a noun as often counts as a verb whatever follows it.
 */
const VERB_BEFORE: ReadonlySet<string> = new Set([
  "i",
  "we",
  "you",
  "to",
  "please",
  "can",
  "could",
  "should",
  "shall",
  "will",
  "may",
  "let",
  "lets",
  "me",
  "us",
]);

const CLASS = new Map<string, Intent>([
  ...READ_VERBS.map((verb) => [verb, "read"] as const),
  ...WRITE_VERBS.map((verb) => [verb, "write"] as const),
  ...DESTRUCTIVE_VERBS.map((verb) => [verb, "destructive"] as const),
]);

/** The words of a request text, lower-case, without possessive `'s` and apostrophes. */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}']+/gu) ?? []
  ).map((word) => word.replace(/'s$/, "").replace(/'/g, ""));
}

/**
 * The position of the verb that decides a request's intent (-1: none): its first verb in verb position (the first word, or a
 * word after a lead-in such as "please", "to", "and", "how do I"), or a destructive verb anywhere;
 * undefined when it names none. Words are matched in their base form as written (`delete`, not
 * `deleted`: "list deleted repositories" reads).
 */
export function decidingVerbAt(words: readonly string[]): number {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const kind = CLASS.get(word);
    if (kind === undefined) continue;
    const before = i === 0 ? undefined : words[i - 1]!;
    const verbPosition = before === undefined || LEAD_INS.has(before);
    if (verbPosition) {
      if (!NOUN_LIKE.has(word) || (before !== undefined && VERB_BEFORE.has(before))) return i;
      const next = words[i + 1];
      if (next === undefined || DETERMINERS.has(next)) return i;
    } else if (kind === "destructive" && !NOUN_LIKE.has(word)) return i;
  }
  return -1;
}

function decidingVerb(words: readonly string[]): string | undefined {
  const at = decidingVerbAt(words);
  return at < 0 ? undefined : words[at];
}

/** Whether the request's deciding verb (above) is a read verb ("list", "search"); false when it names none. */
export function namesReadVerb(text: string): boolean {
  const verb = decidingVerb(wordsOf(text));
  return verb !== undefined && CLASS.get(verb) === "read";
}

/** The intent of a request text: the class of its deciding verb (above); `read` when it names none. */
export function intentOf(text: string): Intent {
  const verb = decidingVerb(wordsOf(text));
  return verb === undefined ? "read" : CLASS.get(verb)!;
}

/**
 * The word APIs name an action with, for verbs that ask for it in other words: "edit", "modify",
 * "close" an item → update; "add", "publish", "upload" one → create; "remove", "erase" → delete.
 * A verb that is itself the action word, or that names an action of its own ("lock", "star",
 * "merge"), has none.
 */
export const ACTION_WORDS: ReadonlyMap<string, string> = new Map([
  ...["add", "post", "submit", "upload", "register", "publish", "generate", "make", "open"].map(
    (verb) => [verb, "create"] as const,
  ),
  ...["edit", "modify", "change", "rename", "replace", "close", "reopen", "mark", "archive"].map(
    (verb) => [verb, "update"] as const,
  ),
  ...["remove", "destroy", "erase", "purge", "drop", "wipe"].map((verb) => [verb, "delete"] as const),
  ...[
    "fetch",
    "retrieve",
    "show",
    "view",
    "display",
    "see",
    "look",
    "describe",
    "inspect",
    "give",
    "tell",
  ].map((verb) => [verb, "get"] as const),
]);

/** The action word of a request's deciding verb (ACTION_WORDS), if it has one. */
export function actionWordOf(text: string): string | undefined {
  const verb = decidingVerb(wordsOf(text));
  return verb === undefined ? undefined : ACTION_WORDS.get(verb);
}

/**
 * How well an endpoint's locked effect fits the intent: 1 for the matching class, ½ for a write
 * endpoint under a destructive intent (a removal is often an update), 0 otherwise.
 */
export function intentFit(intent: Intent, effect: string): number {
  if (effect === intent) return 1;
  if (intent === "destructive" && effect === "write") return 0.5;
  return 0;
}
