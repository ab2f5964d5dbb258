import { parentOf, type CollectionName, type resources } from "../../api";
import { kindInfo, type FieldDefinition, type Kind } from "../../api/kinds";
import { specs, type KindSpec } from "../../provider/resources";
import { code, compact, literal, type Code } from "./literal";
import { Namer, camel, slug, type Name } from "./names";
import { packageJson, pulumiYaml, readme, TSCONFIG } from "./files";
import type { OrgSnapshot } from "./snapshot";
import type { GenerateOptions, RequiredSecret } from "./options";
import { importSpec, type ImportSpec } from "./importFile";

export type { GenerateOptions, RequiredSecret };

/** One generated file: its path relative to the output folder and its text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/** The generated program: its files, and the secrets its stack config must hold. */
export interface GeneratedProgram {
  files: GeneratedFile[];
  secrets: RequiredSecret[];
  /** Number of resources declared (every one with `adoptUid`). */
  resources: number;
  /** The same resources as `pulumi import --file` entries, with the program's names. */
  imports: ImportSpec[];
}

/**
 * Writes a TypeScript Pulumi program declaring everything in `snap`, each resource with
 * `adoptUid` set to its live uid so `pulumi up` adopts it instead of creating it. References
 * between resources are references in code (`ci.uid`); the exported group itself is a config
 * value defaulting to its uid, so the program never manages (or deletes) the group it lives in.
 */
export function generateProgram(snap: OrgSnapshot, opts: GenerateOptions): GeneratedProgram {
  const projectName = slug(opts.projectName ?? snap.root.name) || "irv-org";
  const groupKey = opts.groupConfigKey ?? "groupUid";
  const namer = new Namer();
  const body: string[] = [];
  const secrets: RequiredSecret[] = [];
  // uid -> expression that yields it in the program (a variable's `.uid`, or a constant).
  const refs = new Map<string, string>();
  const ref = (uid: string | undefined, what: string): string | Code | undefined => {
    if (!uid) return undefined;
    const r = refs.get(uid);
    if (r) return code(r);
    // Outside the exported subtree and not a known built-in: keep the uid, and say so.
    return code(`${JSON.stringify(uid)} /* ${what} outside the exported group */`);
  };
  let count = 0;
  const imports: ImportSpec[] = [];
  const declare = (className: string, name: Name, uid: string, args: Record<string, unknown>, opts = "") => {
    count++;
    imports.push(importSpec(className, name, uid));
    refs.set(uid, `${name.variable}.uid`);
    const all = { adoptUid: uid, ...args };
    body.push(`  const ${name.variable} = new iam.${className}(${JSON.stringify(name.logical)}, ${literal(all, "  ")}${opts});`);
  };

  const rootName = namer.take([snap.root.name, "root-group"], "root-group");
  refs.set(snap.root.uid, rootName.variable);
  body.push(
    `  // The exported group (${JSON.stringify(snap.root.name)}) is referenced, not managed: \`pulumi destroy\` never`,
    `  // deletes it. Point the program at another group with \`pulumi config set ${groupKey} <uid>\`.`,
    `  const ${rootName.variable} = config.get(${JSON.stringify(groupKey)}) ?? ${JSON.stringify(snap.root.uid)};`,
  );

  if (snap.externalRoles.size) {
    body.push("", "  // Roles that belong to the platform (built-in), referred to by uid.");
    const sorted = [...snap.externalRoles].sort(([, a], [, b]) => a.localeCompare(b));
    for (const [uid, name] of sorted) {
      const n = namer.take([`${name}-role`], "role");
      refs.set(uid, n.variable);
      body.push(`  const ${n.variable} = ${JSON.stringify(uid)}; // built-in role ${JSON.stringify(name)}`);
    }
  }

  // Names of the groups, and each group's path of names below the exported one
  // (`platform-oncall`): it tells apart resources whose own names repeat across teams.
  const groupNames = new Map<string, string>([[snap.root.uid, snap.root.name]]);
  for (const g of snap.groups) groupNames.set(g.uid, g.name);
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
  const repeated = <T>(items: T[], name: (x: T) => string) => {
    const seen = new Map<string, number>();
    for (const x of items) seen.set(name(x), (seen.get(name(x)) ?? 0) + 1);
    return (x: T) => (seen.get(name(x)) ?? 0) > 1;
  };
  // Each collection in tree order (by the owning group's path of names, then name): parents
  // come before children, so every reference is to a variable already declared, and the file
  // reads as a tree.
  const treeKey = (groupUid: string | undefined) => pathOf(groupUid).replace(/-/g, "\u0001");
  const byPath = <T>(items: T[], key: (x: T) => string) =>
    items
      .map((x) => ({ x, key: key(x) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((e) => e.x);
  const inGroup = <T>(owner: (x: T) => string | undefined, name: (x: T) => string) => (x: T) =>
    `${treeKey(owner(x))}\u0000${name(x)}`;

  for (const rule of exportRules(snap, pathOf, treeKey)) {
    const items = rule.items as Item[];
    if (!items.length) continue;
    const def = kindInfo(rule.kind);
    const spec = specs[rule.kind] as unknown as KindSpec<CollectionName>;
    const owner = (x: Item) => rule.owner?.(x) ?? spec.parentOf(x as never);
    const nameOf = rule.nameOf ?? ((x: Item) => String(x.name));
    const repeats = repeated(items, nameOf);
    const order = rule.order ?? inGroup(owner, nameOf);
    body.push("", `  // ${rule.comment}`);
    for (const x of byPath(items, order)) {
      const name = namer.take(rule.names?.(x) ?? candidates(`${nameOf(x)}${rule.nameSuffix ?? ""}`, owner(x), rule.suffix, repeats(x)), rule.fallback);
      // The live inputs, as the provider reads them back, with references for uids.
      const live = spec.outputs(x as never, {});
      const args: Record<string, unknown> = {};
      for (const [field, f] of Object.entries(def.fields) as [string, FieldDefinition][]) {
        if (!f.input) continue;
        const value = field === def.parentField ? owner(x) : live[field];
        args[field] = f.refersTo ? ref(value as string | undefined, rule.about?.(field, x) ?? (field === def.parentField && rule.kind === "groups" ? "parent group" : kindInfo(f.refersTo as Kind).label)) : value;
      }
      rule.secrets?.(x, name, args, secrets);
      declare(def.className, name, x.uid, compact(args));
    }
  }

  const program = [
    `// Generated by \`irv export --group ${snap.root.uid}\` from ${snap.apiUrl}.`,
    "// Every resource carries `adoptUid`: the first `pulumi up` adopts the live resource instead of",
    "// creating one, and a preview after it shows no changes. Edit freely from then on.",
    'import * as pulumi from "@pulumi/pulumi";',
    'import { iam } from "pulumi-irv";',
    "",
    `/** Declares group ${JSON.stringify(snap.root.name)}'s subtree: ${count} resources. */`,
    "export function program(): void {",
    "  const config = new pulumi.Config();",
    ...body,
    "}",
    "",
  ].join("\n");

  return {
    resources: count,
    secrets,
    imports,
    files: [
      { path: "program.ts", text: program },
      { path: "index.ts", text: 'import { program } from "./program";\n\nprogram();\n' },
      { path: "Pulumi.yaml", text: pulumiYaml(projectName, snap) },
      { path: "package.json", text: packageJson(projectName, opts) },
      { path: "tsconfig.json", text: TSCONFIG },
      { path: "README.md", text: readme(projectName, snap, secrets, groupKey, count) },
    ],
  };
}

type Item = { uid: string } & Record<string, unknown>;
type CollectionItems = Omit<OrgSnapshot, "apiUrl" | "root" | "externalRoles">;

/** How `irv export` declares one kind: naming and order; the fields come from the kind's definition. */
interface ExportRule {
  kind: keyof CollectionItems & Kind;
  items: CollectionItems[keyof CollectionItems];
  /** The comment above the kind's declarations. */
  comment: string;
  /** An item's name (default: its `name`). */
  nameOf?(x: Item): string;
  /** Appended to an item's name (`-role`), and the word that qualifies a repeated one. */
  nameSuffix?: string;
  suffix: string;
  /** The variable name when no candidate is free. */
  fallback: string;
  /** The owning group (default: the provider's parent of the item). */
  owner?(x: Item): string | undefined;
  /** Candidate names replacing the usual ones. */
  names?(x: Item): string[];
  /** The sort key (default: the owner's path, then the name). */
  order?(x: Item): string;
  /** What a reference outside the exported group is, in its comment. */
  about?(field: string, x: Item): string | undefined;
  /** Fills in values the API never returns from secret config, recording each one. */
  secrets?(x: Item, name: Name, args: Record<string, unknown>, out: RequiredSecret[]): void;
}

/** The kinds `irv export` declares, in declaration order (every reference is to one declared above). */
function exportRules(snap: OrgSnapshot, pathOf: (groupUid: string | undefined) => string, treeKey: (groupUid: string | undefined) => string): ExportRule[] {
  const identityNames = new Map(snap.identities.map((i) => [i.uid, i.name]));
  return [
    // A group's key is its own path, which its children's keys extend: parents sort first.
    { kind: "groups", items: snap.groups, comment: "Groups.", suffix: "group", fallback: "group", order: (g) => treeKey(g.uid) },
    { kind: "roles", items: snap.roles, comment: "Custom roles.", nameSuffix: "-role", suffix: "role", fallback: "role" },
    { kind: "identities", items: snap.identities, comment: "Identities.", suffix: "identity", fallback: "identity" },
    {
      kind: "roleBindings",
      items: snap.roleBindings,
      comment: "Role bindings.",
      suffix: "binding",
      fallback: "binding",
      owner: (b) => (b as unknown as resources.RoleBinding).group?.uid || parentOf(b.uid),
      nameOf(x) {
        const b = x as unknown as resources.RoleBinding;
        return `${identityNames.get(b.identity.uid) ?? b.identity.name}-${b.role.name}`;
      },
      about(field, x) {
        const b = x as unknown as resources.RoleBinding;
        if (field === "identityUid") return `identity ${JSON.stringify(b.identity.name)}`;
        if (field === "roleUid") return `role ${JSON.stringify(b.role.name)}`;
        return undefined;
      },
    },
    {
      kind: "identityProviders",
      items: snap.identityProviders,
      comment: "Identity providers. The API never returns client secrets: they come from secret config.",
      suffix: "idp",
      fallback: "identity-provider",
      secrets(x, name, args, out) {
        const p = x as unknown as resources.IdentityProvider;
        const key = camel(`${name.logical}-client-secret`);
        out.push({ key, about: `OIDC client secret of identity provider ${JSON.stringify(p.name)} (client id ${p.oidc.clientId})` });
        const { additionalScopes, ...oidc } = args.oidc as Record<string, unknown>;
        args.oidc = { ...oidc, clientSecret: code(`config.requireSecret(${JSON.stringify(key)})`), additionalScopes };
      },
    },
    {
      kind: "accountAssociations",
      items: snap.accountAssociations,
      comment: "Account associations (one per group).",
      suffix: "accounts",
      fallback: "accounts",
      names: (a) => [`${pathOf(a.uid) || snap.root.name}-accounts`, `${a.name}-accounts`],
      order: (a) => treeKey(a.uid),
    },
  ];
}
