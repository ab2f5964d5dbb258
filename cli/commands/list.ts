import type { Command } from "../command";

/**
 * Every `irv` command, in the order `irv --help` lists them: its name and one line, and its
 * module, loaded when it runs. A command's modules (the API client, the access model, the
 * Automation API) are many: `irv drift` does not wait on `irv review`'s to start.
 */
export const COMMAND_LIST: readonly { name: string; summary: string; load(): Promise<Command> }[] = [
  { name: "drift", summary: "report what differs between a stack and the live API (exit 2 on drift)", load: async () => (await import("./drift")).drift },
  {
    name: "review",
    summary: "preview a change grouped by create / update / replace / delete, with field diffs and IAM guardrail findings",
    load: async () => (await import("./review")).review,
  },
  {
    name: "access",
    summary: "ask who can do what, where: can-i, who-can, what (live through the API, or a stack's state)",
    load: async () => (await import("./access")).accessCommand,
  },
  { name: "export", summary: "write a Pulumi program that adopts a live group subtree", load: async () => (await import("./export")).exportCommand },
  { name: "auth", summary: "log in as an identity, print API or registry tokens, log out", load: async () => (await import("./auth")).authCommand },
];

/** A command's line in `irv --help`. */
export function summaryOf(name: string): string {
  const c = COMMAND_LIST.find((x) => x.name === name);
  if (!c) throw new Error(`no irv command ${name}`);
  return c.summary;
}
