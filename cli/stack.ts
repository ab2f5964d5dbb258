import * as path from "node:path";
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { UsageError } from "./command";

/** Which stack a command works on: a Pulumi project folder and a stack name in it. */
export interface StackSelection {
  /** The stack name; default: the project's currently selected stack. */
  stack?: string;
  /** The project folder (holding Pulumi.yaml); default: the current directory. */
  cwd?: string;
}

/**
 * Opens an existing stack of the Pulumi project in `cwd`, like the `pulumi` CLI would there:
 * the backend, PULUMI_HOME and the passphrase come from the project settings and environment.
 */
export async function openStack({ stack, cwd }: StackSelection): Promise<Stack> {
  const workDir = path.resolve(cwd ?? process.cwd());
  const ws = await LocalWorkspace.create({ workDir });
  const name = stack ?? (await ws.stack())?.name;
  if (!name) throw new UsageError(`no stack selected in ${workDir}: pass --stack <name> or run \`pulumi stack select\``);
  return Stack.select(name, ws);
}
