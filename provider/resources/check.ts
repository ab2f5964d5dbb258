/** `check`: every rule the API would enforce, at preview time, as failures naming the field. */
import { once } from "../../api/once";
import type { dynamic } from "@pulumi/pulumi";
import { z } from "zod";
import * as f from "../../api/fields";
import { fieldIssues } from "../../api/issues";
import type { Kind } from "../../api/kinds";
import type { Inputs, Issue, KindSpec, Outputs, Rec, Unchecked } from "./spec";
import { changesOf } from "./diff";
import { containsUnknown, isRecord, unknownAlong } from "./values";

const commonSchema = once(() => z.object({ adoptUid: f.uid().optional() }));

/**
 * `{<parent field>: uid}`, one schema per field name, built once: zod compiles an object schema
 * on its first parse, which a new schema per check would pay on every resource of a preview.
 */
const parentSchemas = new Map<string, z.ZodType>();
function parentSchema(field: string): z.ZodType {
  let schema = parentSchemas.get(field);
  if (!schema) parentSchemas.set(field, (schema = z.object({ [field]: f.uid() })));
  return schema;
}

/** Runs the kind's rules over inputs; issues on unknown values are dropped. */
export function validate<K extends Kind>(spec: KindSpec<K>, news: Unchecked<Inputs<K>>, prior: Unchecked<Outputs<K>>): Issue[] {
  const inputs: Rec = news;
  const olds: Rec = prior;
  const creating = Object.keys(olds).length === 0;
  const issues: Issue[] = [];
  const parent = parentSchema(spec.parentField).safeParse(inputs);
  if (!parent.success) issues.push(...parent.error.issues);
  const common = commonSchema().safeParse(inputs);
  if (!common.success) issues.push(...common.error.issues);
  const body = spec.createSchema().safeParse(spec.createBody(inputs));
  const toInput = Object.fromEntries(Object.entries(spec.fields).map(([k, v]) => [v.wire, k]));
  if (!body.success)
    for (const i of fieldIssues(body.error)) {
      const [head, ...rest] = i.path;
      issues.push({ path: head === undefined ? [] : [toInput[String(head)] ?? head, ...rest], message: i.message });
    }
  // Parts are not in the create body (they are written apart): their own rules.
  for (const [k, fs] of Object.entries(spec.fields)) {
    const r = fs.part && inputs[k] !== undefined ? fs.part.schema.safeParse(inputs[k]) : undefined;
    if (r && !r.success) for (const i of fieldIssues(r.error)) issues.push({ path: [k, ...i.path], message: i.message });
  }
  for (const k of Object.keys(inputs)) if (!(k in spec.fields) && k !== "adoptUid") issues.push({ path: [k], message: "is not a known field" });
  // An adoptUid outside the declared parent would only fail in create, during `up`: say so now.
  const adoptUid = inputs.adoptUid;
  const parentUid = inputs[spec.parentField];
  if (creating && common.success && parent.success && typeof adoptUid === "string" && !containsUnknown(parentUid)) {
    const owner = spec.parentOf({ uid: adoptUid });
    if (owner !== parentUid) issues.push({ path: ["adoptUid"], message: `belongs to ${owner || "no group"}, but ${spec.parentField} is ${parentUid}` });
  }
  issues.push(...(spec.validate?.(news, creating, prior) ?? []));
  return issues.filter((i) => !unknownAlong(inputs, i.path) && !(!creating && unreadYet(spec, news, prior, i.path)));
}

/**
 * True when `path` is a write-only input that neither the inputs nor the state hold: an imported
 * resource has none (the API never returns it), and a program that does not state it leaves the
 * live value alone. Only a create needs it (also the create of a replacement); a resource that
 * had one cannot drop it.
 */
function unreadYet<K extends Kind>(spec: KindSpec<K>, inputs: Unchecked<Inputs<K>>, olds: Unchecked<Outputs<K>>, path: PropertyKey[]): boolean {
  const at = (r: Rec, p: PropertyKey[]) => p.reduce<unknown>((v, k) => (isRecord(v) ? v[String(k)] : undefined), r);
  if (!(spec.writeOnlyInputs ?? []).includes(path.join(".")) || at(inputs, path) !== undefined || at(olds, path) !== undefined) return false;
  return changesOf(spec, olds, inputs).replaces.length === 0;
}

/**
 * The failures `check` returns: `{property: "claimMatch", reason: "claimMatch.issuer: must be ..."}`.
 * The engine prints `property '<p>' value <inputs[p]>`, looking `p` up among the top-level inputs
 * only, so a nested path (`capabilities.1`) would print `{<nil>}`: the property is the top-level
 * input, and the reason names the full path. A field that holds a secret (`secretFields`, an
 * identity provider's `oidc`) names no property, so the engine prints no value for it.
 */
export function failuresOf(issues: Issue[], secretFields: readonly string[] = []): dynamic.CheckFailure[] {
  const seen = new Set<string>();
  const out: dynamic.CheckFailure[] = [];
  for (const i of issues) {
    const path = i.path.map(String).join(".");
    const reason = path ? `${path}: ${i.message}` : i.message;
    if (seen.has(reason)) continue;
    seen.add(reason);
    const top = i.path.length ? String(i.path[0]) : "";
    out.push({ property: secretFields.includes(top) ? "" : top, reason });
  }
  return out;
}
