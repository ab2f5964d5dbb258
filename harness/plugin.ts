/**
 * What engine tests and benchmarks need to run a program on the resource plugin with no SDK: a
 * resource declared by type token, and a project that finds `pulumi-resource-irv` in this
 * package's `bin/` through `plugins.providers[].path`, as a user's project does.
 */
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { repoRoot, type TestStack } from "./engine";

/**
 * A resource of the plugin `pkg` (default `irv`), declared by type token as a program with no SDK
 * would: `type` is a display name, `events.Subscription` for `<pkg>:events:Subscription`, or a
 * class name alone for one of the iam module (`Group`).
 */
export class PluginResource extends pulumi.CustomResource {
  declare readonly uid: pulumi.Output<string>;

  constructor(type: string, name: string, args: Record<string, pulumi.Input<unknown>>, pkg = "irv") {
    const [module, className] = type.includes(".") ? type.split(".") : ["iam", type];
    // `uid: undefined` asks the engine for the output, as a generated SDK does.
    super(`${pkg}:${module}:${className}`, name, { ...args, uid: undefined });
  }
}

/** Makes `t`'s project find the plugin `name` (default `irv`) in the folder `dir` (default this package's bin/). */
export async function usePluginFrom(t: TestStack, name = "irv", dir = path.join(repoRoot, "bin")): Promise<void> {
  const ws = t.stack.workspace;
  const settings = await ws.projectSettings();
  await ws.saveProjectSettings({ ...settings, plugins: { providers: [{ name, path: dir }] } } as typeof settings);
}
