/**
 * The refresh `irv drift` makes itself. The engine's refresh (`pulumi refresh --preview-only`)
 * starts the engine, the language host and the provider, then reads each resource through the
 * provider; here the same providers (provider/resources) read the same resources in this process,
 * answered from pages of each kind (provider/resources/reads.ts), and each read becomes the step the engine would
 * have reported: the recorded inputs and outputs against what the provider read, secrets masked
 * the same way, and `same` where the provider's diff finds no change, as the engine asks it. What
 * differs is only who calls the provider, so the report is the same.
 *
 * It is used only where that holds: every custom resource of the stack is one of the kinds, run
 * by a default provider, whose settings are the stack's `irv:*` config and the environment, read
 * here as the program would give them (a refresh without the program would reuse the ones
 * recorded at the last update: ../engine/settings.ts). Otherwise the engine's refresh reads.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { definitionOfTypeToken, secretPaths } from "../../api/kinds";
import type { ConfigGetter } from "../../client";
import { Session } from "../../client/session";
import { contextOf, providerOf, ReadBatch, type Context } from "../../provider/resources";
import { ownValues } from "../../provider/resources/host";
import type { Rec } from "../../provider/resources/spec";
import { specialSecretSig, specialSigKey } from "../../provider/sentinels";
import { wrappedSecretPaths, wrapSecrets, type Path } from "../../plugin/secrets";
import { openedSecrets } from "../engine/values";
import { displayNameOfType, nameOf, type Step, type StepState } from "../engine/steps";
import { isDefault } from "../engine/settings";

/** A resource of an exported state, as much of it as this reads. */
interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  delete?: boolean;
  pendingReplacement?: boolean;
  provider?: string;
  inputs?: Rec;
  outputs?: Rec;
}

/** Reads in flight at once: the reads of a kind wait on its listing's pages, so a few suffice. */
const READS_AT_ONCE = 16;

/** Why the engine must refresh this state (a sentence), or undefined when irv can read it itself. */
export function needsEngine(state: Deployment): string | undefined {
  for (const r of resourcesOf(state)) {
    if (r.delete || r.pendingReplacement) return `${r.urn} waits to be deleted or replaced`;
    if (!r.custom || r.type.startsWith("pulumi:providers:")) continue;
    if (!definitionOfTypeToken(r.type)) return `${r.urn} is not an irv resource`;
    // A provider reference is the provider's URN, `::`, its id.
    if (r.provider && !isDefault(r.provider.slice(0, r.provider.lastIndexOf("::")))) return `${r.urn} has an explicit provider`;
  }
  return undefined;
}

/**
 * One refresh step per resource of the kinds in `state`, in state order, each read through its
 * kind's provider with the settings `get` gives (the stack's config, then the environment).
 */
export async function readSteps(state: Deployment, get: ConfigGetter): Promise<Step[]> {
  const resources = resourcesOf(state).filter((r) => r.custom && r.id && definitionOfTypeToken(r.type));
  // One operation: reads of a kind after its first are answered from listings of it.
  const ctx = contextOf(new Session(get, { once: true }), {}, new ReadBatch());
  const steps: Step[] = new Array(resources.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < resources.length; i = next++) steps[i] = await stepOf(resources[i], ctx);
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, resources.length) }, worker));
  return steps;
}

/** The step the engine's refresh reports for `r`: `delete` when it is gone, else `update` or `same` (as the provider's diff says) with both states. */
async function stepOf(r: StateResource, ctx: Context): Promise<Step> {
  const d = definitionOfTypeToken(r.type)!;
  const id = r.id!;
  // What the dynamic classes' host keeps beside the kind's values is not handed to the kind.
  const own = ownValues(openedSecrets(r.outputs ?? {}));
  const name = nameOf(r.urn);
  let read;
  try {
    read = await providerOf(d.kind).read(id, own, ctx);
  } catch (e) {
    throw new Error(`reading ${displayNameOfType(r.type)} ${name} (${id}): ${e instanceof Error ? e.message : String(e)}`);
  }
  const old: StepState = { inputs: masked(r.inputs ?? {}), outputs: masked(r.outputs ?? {}) };
  const base = { urn: r.urn, name, type: r.type, kind: displayNameOfType(r.type), id, old, replaceKeys: [] };
  if (!read) return { ...base, op: "delete" };
  // What arrived secret stays secret, and the kind's secrets are secret: as the plugin answers a read.
  const keep = (was: Rec | undefined): Path[] => [...wrappedSecretPaths(was ?? {}), ...secretPaths(d)];
  const next: StepState = { inputs: masked(wrapSecrets(read.inputs, keep(r.inputs))), outputs: masked(wrapSecrets(read.props, keep(r.outputs))) };
  // The engine's refresh asks the provider's diff whether the resource changed, the live outputs
  // as the old state and the recorded inputs as the new ones, and reports `same` when it did not:
  // so does this.
  const verdict = await providerOf(d.kind).diff(id, read.props, ownValues(openedSecrets(r.inputs ?? {})), ctx);
  return { ...base, op: verdict.changes ? "update" : "same", new: next };
}

/**
 * `v` with every secret replaced by the bare secret marker, as the engine's events carry them:
 * their values never leave this module.
 */
function masked(v: Rec): Rec {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === "object") {
      if (specialSigKey in x && x[specialSigKey] === specialSecretSig) return { [specialSigKey]: specialSecretSig };
      return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    }
    return x;
  };
  return Object.fromEntries(Object.entries(v).map(([k, y]) => [k, walk(y)]));
}

function resourcesOf(state: Deployment): StateResource[] {
  return (state.deployment?.resources ?? []) as StateResource[];
}
