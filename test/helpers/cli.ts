/** Runs the real CLI program in-process and captures what it prints. */
import { main } from "../../compiler/cli/program.js";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCli(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  options: { readonly isTTY?: boolean } = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    stdout: (text) => {
      out.push(text);
    },
    stderr: (text) => {
      err.push(text);
    },
    cwd,
    env,
    ...(options.isTTY !== undefined ? { isTTY: options.isTTY } : {}),
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}
