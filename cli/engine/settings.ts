import type { Stack } from "@pulumi/pulumi/automation";
import { SETTINGS } from "../../client/config";
import { openedSecret } from "./values";

/** The provider the engine runs dynamic resources on, with the stack config as its inputs. */
const NODE_PROVIDER = "pulumi:providers:pulumi-nodejs";

/**
 * The `irv:*` settings whose stack config now differs from what the stack recorded at its last
 * update, by key (values are never returned: they may be credentials).
 *
 * A dynamic provider's configuration is the default `pulumi-nodejs` provider's inputs: the whole
 * stack config as it was at the last `pulumi up`. A refresh that does not run the program reuses
 * those, so after `pulumi config set irv:apiUrl ...` it would still read the old API. When this
 * returns keys, run the refresh with `runProgram`, which registers the provider with the current
 * config.
 */
export async function changedSettings(stack: Stack): Promise<string[]> {
  const state = await stack.exportStack(); // secrets decrypted in memory, compared, dropped
  const config = await stack.getAllConfig();
  const resources = (state.deployment?.resources ?? []) as { type: string; urn: string; inputs?: Record<string, unknown> }[];
  const provider = resources.find((r) => r.type === NODE_PROVIDER && /::default(_[\w-]+)?$/.test(r.urn));
  if (!provider) return [];
  const recorded = provider.inputs ?? {};
  return Object.values(SETTINGS)
    .map((s) => s.key)
    .filter((key) => (openedSecret(recorded[key]) ?? "") !== (config[key]?.value ?? ""));
}
