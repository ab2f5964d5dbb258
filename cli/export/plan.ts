/**
 * What `irv export` declares, as data: the exported group's variable, the built-in roles it
 * refers to, then each kind's resources in declaration order, each with its unique name and its
 * arguments (uids already references to variables declared above). The emitter (emit.ts) turns a
 * plan into files; the fields of each declaration come from the kind's definition.
 */
import type { z } from "zod";
import { parentOf } from "../../api";
import {
  definitionOf,
  EXPORTED_KINDS,
  fieldEntries,
  pluralOf,
  secretPaths,
  snakeOf,
  type ExportedKind,
  type FieldDefinition,
  type Kind,
  type KindDefinition,
} from "../../api/kinds";
import { specs } from "../../provider/resources";
import { tsCommentText, tsString } from "../format/typescript";
import { code, compact, type Code } from "./literal";
import { Namer, camel, slug, type Name } from "./names";
import { wellFormed } from "./read";
import type { OrgSnapshot } from "./snapshot";
import type { GenerateOptions, RequiredSecret } from "./options";
import type { Item as ItemOf } from "../../client";
import type { Module } from "../../api/modules";

/** One resource the program declares. */
export interface Declaration {
  /** Its kind's module and class: `new <module>.<className>(...)`. */
  module: Module;
  className: string;
  name: Name;
  uid: string;
  /** Its arguments but `adoptUid` (references and config reads as `Code`). */
  args: Record<string, unknown>;
}

/** The program to write. */
export interface ProgramPlan {
  projectName: string;
  /** The config key holding the exported group's uid. */
  groupKey: string;
  /** The exported group: referenced through config, never managed. */
  root: { variable: string; name: string; uid: string };
  /** Roles outside the subtree the resources refer to (built-in ones, a parent group's): constants. */
  outsideRoles: { variable: string; name: string; uid: string }[];
  /** Each kind's declarations, under a comment. */
  sections: { comment: string; declarations: Declaration[] }[];
  /** The secrets the stack config must hold. */
  secrets: RequiredSecret[];
}

/** Plans a TypeScript Pulumi program declaring everything in `snap` (see generateProgram). */
export function planProgram(snap: OrgSnapshot, opts: GenerateOptions): ProgramPlan {
  const namer = new Namer();
  const secrets: RequiredSecret[] = [];
  // uid -> expression that yields it in the program (a variable's `.uid`, or a constant).
  const refs = new Map<string, string>();
  const ref = (uid: string | undefined, what: string): string | Code | undefined => {
    if (!uid) return undefined;
    const r = refs.get(uid);
    if (r) return code(r);
    // Outside the exported subtree and not a known built-in: keep the uid, and say so.
    return code(`${tsString(uid)} /* ${what} outside the exported group */`);
  };

  const rootName = namer.take([snap.root.name, "root-group"], "root-group");
  refs.set(snap.root.uid, rootName.variable);
  const outsideRoles = [...snap.externalRoles]
    .sort(([, a], [, b]) => a.localeCompare(b))
    .map(([uid, name]) => {
      const n = namer.take([`${name}-role`], "role");
      refs.set(uid, n.variable);
      return { variable: n.variable, name, uid };
    });

  const { pathOf, treeKey, candidates } = naming(snap);
  const sections: ProgramPlan["sections"] = [];
  for (const rule of exportRules(snap, pathOf, treeKey)) {
    const items = rule.items;
    if (!items.length) continue;
    const def = definitionOf(rule.kind);
    const spec = specs[rule.kind];
    const owner = (x: Item) => rule.owner?.(x) ?? spec.parentOf(x);
    const nameOf = rule.nameOf ?? ((x: Item) => String(x.name));
    const repeats = repeated(items, nameOf);
    const order = rule.order ?? ((x: Item) => `${treeKey(owner(x))}\u0000${nameOf(x)}`);
    const declarations: Declaration[] = [];
    for (const x of byKey(items, order)) {
      const name = namer.take(rule.names?.(x) ?? candidates(`${nameOf(x)}${rule.nameSuffix ?? ""}`, owner(x), rule.suffix, repeats(x)), rule.fallback);
      // The live inputs, as the provider reads them back, with references for uids.
      const live: Record<string, unknown> = spec.outputs(x as never, {});
      const args: Record<string, unknown> = {};
      for (const [field, f] of fieldEntries(def.fields)) {
        if (!f.input) continue;
        const value = field === def.parentField ? owner(x) : live[field];
        args[field] = f.refersTo ? ref(value ? wellFormed(value, rule.kind) : undefined, about(def, field, f, x)) : value;
      }
      for (const [field, member] of secretInputs(def)) {
        const key = camel(`${name.logical}-${snakeOf(member ?? field).replace(/_/g, "-")}`);
        const value = code(`config.requireSecret(${tsString(key)})`);
        args[field] = member ? inSchemaOrder(rule.kind, field, { ...(args[field] as object), [member]: value }) : value;
        secrets.push({ key, about: rule.secretAbout?.(x, [field, member]) ?? `${member ?? field} of ${def.label} ${JSON.stringify(nameOf(x))}` });
      }
      refs.set(x.uid, `${name.variable}.uid`);
      declarations.push({ module: def.module, className: def.className, name, uid: x.uid, args: compact(args) });
    }
    sections.push({ comment: rule.comment, declarations });
  }
  return {
    projectName: slug(opts.projectName ?? snap.root.name) || "irv-org",
    groupKey: opts.groupConfigKey ?? "groupUid",
    root: { variable: rootName.variable, name: snap.root.name, uid: snap.root.uid },
    outsideRoles,
    sections,
    secrets,
  };
}

/**
 * How resources are named: each group's path of names below the exported one
 * (`platform-oncall`) tells apart resources whose own names repeat across teams.
 */
function naming(snap: OrgSnapshot) {
  const groupNames = new Map<string, string>([[snap.root.uid, snap.root.name]]);
  for (const g of snap.items.groups) groupNames.set(g.uid, g.name);
  const pathOf = (groupUid: string | undefined): string => {
    if (!groupUid || groupUid === snap.root.uid || !groupNames.has(groupUid)) return "";
    const up = pathOf(parentOf(groupUid));
    return up ? `${up}-${groupNames.get(groupUid)}` : groupNames.get(groupUid)!;
  };
  /**
   * Candidate names for `name` owned by group `owner`: plain, then by parent, then by path, then
   * with a word for the kind (`-role`). A name that repeats within its kind (`oncall` in every team) is qualified by
   * its group's path everywhere (`platform-oncall`, `data-oncall`), never plain in one place and
   * qualified in the others.
   */
  const candidates = (name: string, owner: string | undefined, word: string, repeats: boolean) => {
    const parent = owner && owner !== snap.root.uid ? (groupNames.get(owner) ?? "") : "";
    const path = pathOf(owner);
    const all = [name, `${parent}-${name}`, `${path}-${name}`, `${name}-${word}`, `${path}-${name}-${word}`];
    return repeats && path ? [`${path}-${name}`, `${path}-${name}-${word}`] : all;
  };
  // Each collection in tree order (by the owning group's path of names, then name): parents
  // come before children, so every reference is to a variable already declared, and the file
  // reads as a tree.
  const treeKey = (groupUid: string | undefined) => pathOf(groupUid).replace(/-/g, "\u0001");
  return { pathOf, treeKey, candidates };
}

/** Whether an item's name repeats among `items`. */
function repeated<T>(items: T[], name: (x: T) => string) {
  const seen = new Map<string, number>();
  for (const x of items) seen.set(name(x), (seen.get(name(x)) ?? 0) + 1);
  return (x: T) => (seen.get(name(x)) ?? 0) > 1;
}

/** `items` sorted by `key`. */
function byKey<T>(items: T[], key: (x: T) => string): T[] {
  return items
    .map((x) => ({ x, key: key(x) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.x);
}

/**
 * What a reference outside the exported group is, in its comment: the parent group, the item the
 * API hydrates for a uid field (a binding's `identity` for the uid of its identity) by its name, else the
 * kind it refers to.
 */
function about(def: KindDefinition, field: string, f: FieldDefinition, x: Item): string {
  const label = definitionOf(f.refersTo as Kind).label;
  if (field === def.parentField) return f.refersTo === def.kind ? `parent ${label}` : label;
  const hydrated = x[field.replace(/Uid$/, "")] as { name?: string } | undefined;
  return hydrated?.name !== undefined ? `${label} ${tsCommentText(hydrated.name)}` : label;
}

/** `block` with its members in the order the kind's request rule lists them. */
function inSchemaOrder(kind: Kind, field: string, block: Record<string, unknown>): Record<string, unknown> {
  const schema = (definitionOf(kind).fields as Record<string, FieldDefinition>)[field].schema as z.ZodObject;
  const order = Object.keys(schema.shape);
  return Object.fromEntries(Object.entries(block).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)));
}

type Item = { uid: string } & Record<string, unknown>;

/** The host name of URL `s`, or "" when it is none. */
function hostOf(s: string): string {
  try {
    return new URL(s).hostname;
  } catch {
    return "";
  }
}

/** How `irv export` declares one kind: naming and order; the fields come from the kind's definition. */
interface ExportRule<T extends Item = Item> {
  /** The comment above the kind's declarations (default: the label's plural). */
  comment: string;
  /** An item's name (default: its `name`). */
  nameOf?(x: T): string;
  /** Appended to an item's name (`-role`). */
  nameSuffix?: string;
  /** The word that qualifies a repeated name (default: the label's last word). */
  suffix: string;
  /** The variable name when no candidate is free (default: the label, hyphenated). */
  fallback: string;
  /** The owning group (default: the provider's parent of the item). */
  owner?(x: T): string | undefined;
  /** Candidate names replacing the usual ones. */
  names?(x: T): string[];
  /** The sort key (default: the owner's path, then the name). */
  order?(x: T): string;
  /** What a secret input the API never returns is, for the README (see `secretInputs`). */
  secretAbout?(x: T, at: [field: string, member: string | undefined]): string;
}

/**
 * The secret inputs of `d` the API never returns, which a program reads from secret config: each
 * as its field and, for a block's member (an identity provider's `oidc.clientSecret`), the member.
 */
function secretInputs(d: KindDefinition): [field: string, member: string | undefined][] {
  return secretPaths(d).flatMap(([field, member]) => {
    const f = d.fields[field];
    const writeOnly = member === undefined ? f.writeOnly : f.writeOnlyMembers?.includes(member);
    return f.input && writeOnly ? [[field, member] as [string, string | undefined]] : [];
  });
}

/** A kind's rule from its label alone: "role binding" is declared under "Role bindings.", named `…-binding` when it repeats. */
function defaultRule(def: KindDefinition): ExportRule {
  const plural = pluralOf(def.label);
  return { comment: `${plural[0].toUpperCase()}${plural.slice(1)}.`, suffix: def.label.split(" ").pop()!, fallback: def.label.replace(/ /g, "-") };
}

/**
 * The kinds `irv export` declares, in the order of their definitions (each kind refers only to
 * kinds listed before it, so every reference is to a variable declared above), with what is
 * particular to naming each.
 */
function exportRules(
  snap: OrgSnapshot,
  pathOf: (groupUid: string | undefined) => string,
  treeKey: (groupUid: string | undefined) => string,
): (ExportRule & { kind: ExportedKind; items: Item[] })[] {
  const identityNames = new Map(snap.items.identities.map((i) => [i.uid, i.name]));
  const particular: { [K in ExportedKind]?: Partial<ExportRule<Item & ItemOf<K>>> } = {
    // A group's key is its own path, which its children's keys extend: parents sort first.
    groups: { order: (g) => treeKey(g.uid) },
    roles: { comment: "Custom roles.", nameSuffix: "-role" },
    roleBindings: {
      fallback: "binding",
      owner: (b) => b.group?.uid || parentOf(b.uid),
      nameOf(b) {
        return `${identityNames.get(b.identity.uid) ?? b.identity.name}-${b.role.name}`;
      },
    },
    identityProviders: {
      comment: "Identity providers. The API never returns client secrets: they come from secret config.",
      suffix: "idp",
      secretAbout: (p) => `OIDC client secret of identity provider ${JSON.stringify(p.name)} (client id ${JSON.stringify(p.oidc.clientId)})`,
    },
    // A subscription has no name: the host of its sink names it.
    subscriptions: { comment: "Events subscriptions.", nameOf: (s) => hostOf(s.sink) || "subscription" },
    accountAssociations: {
      comment: "Account associations (one per group).",
      suffix: "accounts",
      fallback: "accounts",
      names: (a) => [`${pathOf(a.uid) || snap.root.name}-accounts`, `${a.name}-accounts`],
      order: (a) => treeKey(a.uid),
    },
  };
  return EXPORTED_KINDS.map((kind) => ({ kind, items: snap.items[kind], ...defaultRule(definitionOf(kind)), ...particular[kind] }));
}
