/**
 * The proposed access, handed from the policy pack (which sees a preview's resources with their
 * dependencies, so a binding to an identity created in the same change is known) to `irv review`
 * (which knows the state before): a JSON file at `IRV_ACCESS_WORLD`, holding only the fields the
 * access model reads, never a secret or key.
 */
import { writeFileSync } from "node:fs";
import { definitionOf, fieldEntries, type Kind } from "../../api/kinds";
import { RELATIONSHIP_TYPES } from "../../api/kinds/identities";
import type { World } from "../world";
import type { ResourceItem } from "./items";
import { ACCESS_KINDS } from "./sources";

/** The environment variable naming the file. */
export const ACCESS_WORLD_ENV = "IRV_ACCESS_WORLD";

/** The members of a relationship type the model reads: who may assume the identity, not how it proves it. */
const WHO = ["issuer", "issuerPattern", "subject", "subjectPattern", "awsAccount", "arn", "arnPattern", "userId", "userIdPattern"];

/** The fields of `kind` the access model reads: its name, references (parent included), capabilities, relationship type. */
function accessFields(kind: Kind, inputs: Record<string, unknown>): Record<string, unknown> {
  const d = definitionOf(kind);
  const out: Record<string, unknown> = {};
  for (const [k, f] of fieldEntries(d.fields)) if (f.refersTo && k in inputs) out[k] = inputs[k];
  for (const k of ["name", "capabilities", "servicePrincipal"]) if (k in inputs) out[k] = inputs[k];
  for (const t of RELATIONSHIP_TYPES) {
    const block = inputs[t];
    if (t === "servicePrincipal" || !block || typeof block !== "object") continue;
    out[t] = Object.fromEntries(WHO.filter((m) => m in block).map((m) => [m, (block as Record<string, unknown>)[m]]));
  }
  return out;
}

/** A world's access resources as items keyed by URN, references not known yet kept as their dependencies. */
export function itemsOfWorld(world: World): ResourceItem[] {
  return world.subjects
    .filter((s) => ACCESS_KINDS.includes(s.kind))
    .map((s) => ({
      kind: s.kind,
      key: s.urn,
      label: s.name,
      uid: s.uid,
      fields: accessFields(s.kind, s.inputs),
      deps: Object.fromEntries(Object.entries(s.deps ?? {}).map(([f, ds]) => [f, ds.map((d) => d.urn)])),
    }));
}

/** Writes `world`'s access items to the file `IRV_ACCESS_WORLD` names, when it names one. */
export function recordWorld(world: World, env: NodeJS.ProcessEnv = process.env): void {
  const file = env[ACCESS_WORLD_ENV];
  if (file) writeFileSync(file, JSON.stringify(itemsOfWorld(world)), { mode: 0o600 });
}
