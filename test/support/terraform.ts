/**
 * Terraform states for the tests of `pulumi import --from terraform`: the org of
 * test/plugin/fixtures/terraform as that provider wrote it, its uids moved onto live ones, and the
 * import file Pulumi's Terraform converter makes from a state. The converter itself is not on the
 * Go module proxy; `importFileOf` does what its `TranslateState` does for these types (one entry
 * per managed instance: the mapping's token, the resource's name with `-<index>` for a counted
 * one, the `id` attribute), so `pulumi import --file` of it takes what `--from terraform` would.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

export const TERRAFORM_FIXTURES = path.join(__dirname, "..", "plugin", "fixtures", "terraform");

/** A Terraform state (format 4), as far as the tests read it. */
export interface TfState {
  version: number;
  resources: { mode: "managed" | "data"; type: string; name: string; instances: { index_key?: string | number; attributes: Record<string, unknown> }[] }[];
}

/** The fixture's state. */
export const fixtureState = (): TfState => JSON.parse(readFileSync(path.join(TERRAFORM_FIXTURES, "terraform.tfstate"), "utf8"));

/** `v` with every string that `uids` maps replaced, at any depth. */
function moved(v: unknown, uids: Map<string, string>): unknown {
  if (typeof v === "string") return uids.get(v) ?? v;
  if (Array.isArray(v)) return v.map((x) => moved(x, uids));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, moved(x, uids)]));
  return v;
}

/**
 * The fixture's state with each managed resource's id replaced by `live[<type>.<name>]`, and every
 * other value that held one of the old ids (a parent, a binding's identity) following it.
 */
export function stateOnto(live: Record<string, string>): TfState {
  const state = fixtureState();
  const uids = new Map<string, string>();
  for (const r of state.resources) {
    if (r.mode !== "managed") continue;
    const uid = live[`${r.type}.${r.name}`];
    if (!uid) throw new Error(`no live uid for ${r.type}.${r.name}`);
    uids.set(String(r.instances[0].attributes.id), uid);
  }
  return {
    ...state,
    resources: state.resources.map((r) => ({
      ...r,
      instances: r.instances.map((i) => ({ ...i, attributes: moved(i.attributes, uids) as Record<string, unknown> })),
    })),
  };
}

/** The `pulumi import --file` document the converter makes of `state` with `mapping` (the plugin's Terraform mapping). */
export function importFileOf(
  state: TfState,
  mapping: { resources: Record<string, { tok: string }> },
): { resources: { type: string; name: string; id: string }[] } {
  const resources: { type: string; name: string; id: string }[] = [];
  for (const r of state.resources) {
    if (r.mode !== "managed") continue;
    for (const i of r.instances) {
      const name = i.index_key === undefined ? r.name : `${r.name}-${i.index_key}`;
      resources.push({ type: mapping.resources[r.type].tok, name, id: String(i.attributes.id) });
    }
  }
  return { resources };
}
