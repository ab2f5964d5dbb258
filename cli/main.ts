import { EXIT, UsageError, processIo, type Command, type Io } from "./command";
import { COMMAND_LIST } from "./commands/list";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { terminalText } from "./format/terminal";

/** `irv --help`. */
export const USAGE = `Usage: irv <command> [options]

Drift detection, change reviews and exporting an org as code for pulumi-irv stacks, on top of
the Pulumi Automation API (the \`pulumi\` CLI must be on PATH for drift and review), and
command-line login as an identity (\`irv auth\`).

Commands:
${COMMAND_LIST.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`).join("\n")}

Run \`irv <command> --help\` for a command's options; \`irv --version\` prints the version.

Exit codes: 0 success / in sync, 2 drift found (drift) or changes pending
(review --detailed-exitcode), 3 a mandatory policy violation (review), 4 no and 5 cannot tell
(access can-i), 1 error.`;

/**
 * Runs `irv` with `argv` (the arguments after the program name) and returns the exit code.
 * Errors are printed to `io.err` as one message, never with credentials.
 */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v" || name === "version") {
    io.out(`irv ${version()} (pulumi-irv)`);
    return EXIT.ok;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(USAGE);
    return name === undefined ? EXIT.error : EXIT.ok;
  }
  const entry = COMMAND_LIST.find((c) => c.name === name);
  if (!entry) {
    io.err(`irv: unknown command "${name}"\n\n${USAGE}`);
    return EXIT.error;
  }
  try {
    const command: Command = await entry.load();
    return await command.run(rest, io);
  } catch (e) {
    io.err(terminalText(`irv ${name}: ${describeError(e)}`));
    return EXIT.error;
  }
}

/** pulumi-irv's version: from the nearest package.json above this file (cli/ in a checkout, dist/cli/ when built). */
export function version(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
    if (path.dirname(dir) === dir) return "unknown";
  }
}

/**
 * One readable message for an error: a usage error as is; an engine failure as the lines of the
 * pulumi CLI's output that say what went wrong, not its whole transcript.
 */
export function describeError(e: unknown): string {
  if (e instanceof UsageError) return e.message;
  const err = e as { message?: string; commandResult?: { stderr?: string; stdout?: string } };
  const result = err.commandResult;
  if (/ENOENT/.test(err.message ?? "") && /pulumi/.test(err.message ?? ""))
    return "the pulumi CLI was not found on PATH: install it (or put the folder `scripts/ensure-pulumi` prints first on PATH)";
  if (result) {
    const lines = `${result.stderr ?? ""}\n${result.stdout ?? ""}`.split("\n").map((l) => l.trimEnd());
    const wanted = lines.filter((l) => /error|failed|no stack|not found|unauthenticated|denied/i.test(l));
    const shown = (wanted.length ? wanted : lines.filter(Boolean)).slice(0, 20);
    return `the pulumi engine failed:\n${shown.join("\n")}`;
  }
  return err.message ?? String(e);
}
