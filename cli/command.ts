import { terminalText } from "./format/terminal";

/** Exit codes of every `irv` command. */
export const EXIT = {
  /** Success: in sync, no error. */
  ok: 0,
  /** An error: bad usage, no stack, an engine or API failure. */
  error: 1,
  /** `drift`: the stack differs from the live API. `review --detailed-exitcode`: changes pending. */
  changes: 2,
  /** `review`: the IAM guardrails found a mandatory violation (the change must not be applied). */
  policy: 3,
  /** \`access can-i\`: no. */
  no: 4,
  /** \`access can-i\`: cannot tell (something the answer depends on could not be seen). */
  unknown: 5,
} as const;

/** An error the user can fix from the message alone: printed without a stack trace. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** One `irv` subcommand: its help text and what running it does. Returns the exit code. */
export interface Command {
  name: string;
  /** One line for `irv --help`. */
  summary: string;
  /** The full `--help` text. */
  help: string;
  run(argv: string[], io: Io): Promise<number>;
}

/** Where a command writes: the report to `out`, progress and errors to `err`. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** The process's stdout and stderr, through `terminalText`: nothing printed carries a raw control character. */
export const processIo: Io = {
  out: (text) => void process.stdout.write(terminalText(text.endsWith("\n") ? text : `${text}\n`)),
  err: (text) => void process.stderr.write(terminalText(text.endsWith("\n") ? text : `${text}\n`)),
};

/** `--help`/`-h`, which every command takes: spread into its `parseArgs` options. */
export const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/** The options of the commands that work on a stack: which stack, where, and the output format. */
export const STACK_OPTIONS = {
  ...HELP_OPTION,
  stack: { type: "string", short: "s" },
  cwd: { type: "string" },
  format: { type: "string", short: "f" },
} as const;

/**
 * Runs a command's `util.parseArgs` call, turning its errors into `UsageError`s that say where
 * to find the command's usage.
 */
export function parsing<T>(command: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\nRun \`irv ${command} --help\` for usage.`);
  }
}

/** Checks that `value` is one of `allowed`, for an option such as `--format`. */
export function oneOf<T extends string>(option: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${option} must be one of ${allowed.join(", ")}, not "${value}"`);
}
