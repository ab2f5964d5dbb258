/** Which of a definition's fields play a part: its inputs, secrets, write-only members, replacing fields. */
import type { FieldDefinition, KindDefinition } from "./definition";

/** A kind's (or a function's) fields, each with its name: what `Object.entries` cannot type on its own. */
export function fieldEntries(fields: Readonly<Record<string, FieldDefinition>>): [string, FieldDefinition][] {
  return Object.entries(fields);
}

/** The names of `d`'s declared inputs. */
export function inputNames(d: KindDefinition): string[] {
  return Object.keys(d.fields).filter((k) => d.fields[k].input);
}

/**
 * The names of the fields of `d` a dynamic resource marks secret in state: the secret fields, and
 * the blocks that have secret members (a dynamic provider cannot mark one member of an object).
 */
export function secretNames(d: KindDefinition): string[] {
  return Object.keys(d.fields).filter((k) => d.fields[k].secret || d.fields[k].secretMembers?.length);
}

/** The paths of the values of `d` kept secret in state, member by member: `["code"]`, `["oidc", "clientSecret"]`. */
export function secretPaths(d: KindDefinition): string[][] {
  return Object.entries(d.fields).flatMap(([k, f]) => (f.secret ? [[k]] : (f.secretMembers ?? []).map((m) => [k, m])));
}

/** The dotted paths of `d`'s write-only block members: `oidc.clientSecret`. */
export function writeOnlyMemberPaths(d: KindDefinition): string[] {
  return Object.entries(d.fields).flatMap(([k, f]) => (f.writeOnlyMembers ?? []).map((m) => `${k}.${m}`));
}

/** The fields of `d` that force replacement when they change. */
export function replaceNames(d: KindDefinition): string[] {
  return Object.keys(d.fields).filter((k) => d.fields[k].replace);
}
