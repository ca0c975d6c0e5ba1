/**
 * Command-line options of the call harnesses that compare runtime builds (call-builds.mjs,
 * call-inprocess.mjs, call-cold.mjs; docs/benchmarks.md, "Governance overhead"): `--build=label=path`
 * (repeatable; the current build is always first), `--runs=N`, `--calls=N`, plus each harness's own
 * numeric or string options. An unknown option is an error.
 */
import { loadavg } from "node:os";
import { RUNTIME } from "./paths.mjs";

/**
 * Parses `argv` into `{ builds, runs, calls, ...extra }`; `defaults` gives runs, calls and every extra
 * option's default (its type decides how the value is read: number or string).
 */
export function buildOptions(argv, defaults) {
  const options = { ...defaults, builds: [["current", RUNTIME]] };
  for (const arg of argv) {
    const [key, value = ""] = arg.replace(/^--/, "").split(/=(.*)/s);
    if (key === "build") {
      const [label, path] = value.split(/=(.*)/s);
      options.builds.push([label, path]);
    } else if (key !== "builds" && Object.hasOwn(defaults, key)) {
      options[key] = typeof defaults[key] === "number" ? Number(value) : value;
    } else throw new Error(`unknown option --${key}`);
  }
  return options;
}

/** The 1/5/15-minute load average, as the harnesses print it. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
