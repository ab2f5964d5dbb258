/** How a kind and its fields are named: proto and wire names, type tokens, display names. */
import type { FieldDefinition, KindDefinition } from "./definition";

/** `default_role` -> `defaultRole`: protojson's name of a proto field. */
export function camelOf(protoName: string): string {
  return protoName.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `defaultRole` -> `default_role`: the proto name protoc would give a lowerCamelCase name. */
export function snakeOf(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The proto name of field `name` of a kind. */
export function protoNameOf(name: string, f: FieldDefinition): string {
  return f.proto?.name ?? snakeOf(name);
}

/** The name of field `name` on the wire (JSON): its proto name in lowerCamelCase. */
export function wireNameOf(name: string, f: FieldDefinition): string {
  return f.proto?.json ?? (f.proto?.name ? camelOf(f.proto.name) : name);
}

/** The type token of a kind's resources in the resource plugin: `irv:iam:Group`, `irv:events:Subscription`. */
export function tokenOf(d: Pick<KindDefinition, "module" | "className">): string {
  return `irv:${d.module}:${d.className}`;
}

/**
 * The type token the dynamic classes give a kind's resources (`pulumi-nodejs:dynamic/irv:Group`):
 * module "irv", the class name. Each plugin resource lists it as an alias, so a stack moves
 * between the dynamic classes and the plugin without recreating anything. It carries no module:
 * the IAM kinds' tokens predate modules and must not change (a changed type is a replacement),
 * and one scheme for every module is simpler than two, so class names are unique across modules
 * (test/api/kinds.test.ts).
 */
export function dynamicTokenOf(d: Pick<KindDefinition, "className">): string {
  return `${DYNAMIC_TYPE_PREFIX}${d.className}`;
}

/** What every dynamic irv class's type token starts with. */
export const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic/irv:";

/** A label in the plural, as messages and comments count items: "identity" -> "identities". */
export function pluralOf(label: string): string {
  return label.replace(/y$/, "ie") + "s";
}

/** The display name of a kind, as `irv` reports and the SDK namespace show it: `iam.Group`, `events.Subscription`. */
export function displayNameOf(d: Pick<KindDefinition, "module" | "className">): string {
  return `${d.module}.${d.className}`;
}
