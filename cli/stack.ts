import * as path from "node:path";
import { LocalWorkspace, Stack, type ConfigMap, type Deployment } from "@pulumi/pulumi/automation";
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
export async function openStack(selection: StackSelection): Promise<Stack> {
  const { ws, name } = await workspaceOf(selection);
  return Stack.select(name, ws);
}

/**
 * Opens a stack (as openStack) and reads its contents: the three runs of the pulumi CLI side by
 * side, the selection's error first (a stack that does not exist fails all three).
 */
export async function openAndRead(selection: StackSelection): Promise<{ stack: Stack; contents: StackContents }> {
  const { ws, name } = await workspaceOf(selection);
  const reading = Promise.all([ws.exportStack(name), ws.getAllConfig(name)]);
  reading.catch(() => undefined); // awaited below, once the selection has succeeded
  const stack = await Stack.select(name, ws);
  const [state, config] = await reading;
  return { stack, contents: { state, config } };
}

async function workspaceOf({ stack, cwd }: StackSelection): Promise<{ ws: LocalWorkspace; name: string }> {
  const workDir = path.resolve(cwd ?? process.cwd());
  const ws = await LocalWorkspace.create({ workDir });
  const name = stack ?? (await ws.stack())?.name;
  if (!name) throw new UsageError(`no stack selected in ${workDir}: pass --stack <name> or run \`pulumi stack select\``);
  return { ws, name };
}

/** A stack's state and config as its files hold them now: secrets decrypted in memory, never to be printed. */
export interface StackContents {
  state: Deployment;
  config: ConfigMap;
}

/** Reads a stack's state and config (two runs of the pulumi CLI, side by side), once for a whole command. */
export async function contentsOf(stack: Stack): Promise<StackContents> {
  const [state, config] = await Promise.all([stack.exportStack(), stack.getAllConfig()]);
  return { state, config };
}
