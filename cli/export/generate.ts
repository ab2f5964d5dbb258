import { IDENTITY_KINDS, parentOf, ACCOUNT_BLOCKS, type resources } from "../../api";
import { code, compact, literal, type Code } from "./literal";
import { Namer, camel, slug, type Name } from "./names";
import { packageJson, pulumiYaml, readme, TSCONFIG } from "./files";
import type { OrgSnapshot } from "./snapshot";
import type { GenerateOptions, RequiredSecret } from "./options";

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
  const declare = (kind: string, name: Name, uid: string, args: Record<string, unknown>, opts = "") => {
    count++;
    refs.set(uid, `${name.variable}.uid`);
    const all = { adoptUid: uid, ...args };
    body.push(`  const ${name.variable} = new iam.${kind}(${JSON.stringify(name.logical)}, ${literal(all, "  ")}${opts});`);
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
   * with the kind. A name that repeats within its kind (`oncall` in every team) is qualified by
   * its group's path everywhere (`platform-oncall`, `data-oncall`), never plain in one place and
   * qualified in the others.
   */
  const candidates = (name: string, owner: string | undefined, kind: string, repeats: boolean) => {
    const parent = owner && owner !== snap.root.uid ? (groupNames.get(owner) ?? "") : "";
    const path = pathOf(owner);
    const all = [name, `${parent}-${name}`, `${path}-${name}`, `${name}-${kind}`, `${path}-${name}-${kind}`];
    return repeats && path ? [`${path}-${name}`, `${path}-${name}-${kind}`] : all;
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

  // A group's key is its own path, which its children's keys extend: parents sort first.
  const groups = byPath(snap.groups, (g) => treeKey(g.uid));
  const groupRepeats = repeated(groups, (g) => g.name);
  if (groups.length) body.push("", "  // Groups.");
  for (const g of groups) {
    const name = namer.take(candidates(g.name, parentOf(g.uid), "group", groupRepeats(g)), "group");
    declare("Group", name, g.uid, compact({ parentUid: ref(parentOf(g.uid), "parent group"), name: g.name, description: g.description }));
  }

  if (snap.roles.length) body.push("", "  // Custom roles.");
  const roleRepeats = repeated(snap.roles, (r) => r.name);
  for (const r of byPath(snap.roles, inGroup((r) => parentOf(r.uid), (r) => r.name))) {
    const name = namer.take(candidates(`${r.name}-role`, parentOf(r.uid), "role", roleRepeats(r)), "role");
    declare("Role", name, r.uid, compact({ groupUid: ref(parentOf(r.uid), "group"), name: r.name, description: r.description, capabilities: r.capabilities }));
  }

  if (snap.identities.length) body.push("", "  // Identities.");
  const identityRepeats = repeated(snap.identities, (i) => i.name);
  for (const i of byPath(snap.identities, inGroup((i) => parentOf(i.uid), (i) => i.name))) {
    const name = namer.take(candidates(i.name, parentOf(i.uid), "identity", identityRepeats(i)), "identity");
    const kind = Object.fromEntries(IDENTITY_KINDS.filter((k) => i[k] !== undefined).map((k) => [k, i[k]]));
    declare("Identity", name, i.uid, compact({ groupUid: ref(parentOf(i.uid), "group"), name: i.name, description: i.description, ...kind }));
  }

  const identityNames = new Map(snap.identities.map((i) => [i.uid, i.name]));
  const bindingGroup = (b: resources.RoleBinding) => b.group?.uid || parentOf(b.uid);
  const bindingName = (b: resources.RoleBinding) => `${identityNames.get(b.identity.uid) ?? b.identity.name}-${b.role.name}`;
  if (snap.roleBindings.length) body.push("", "  // Role bindings.");
  const bindingRepeats = repeated(snap.roleBindings, bindingName);
  for (const b of byPath(snap.roleBindings, inGroup(bindingGroup, bindingName))) {
    const name = namer.take(candidates(bindingName(b), bindingGroup(b), "binding", bindingRepeats(b)), "binding");
    declare("RoleBinding", name, b.uid, {
      groupUid: ref(bindingGroup(b), "group"),
      identityUid: ref(b.identity.uid, `identity ${JSON.stringify(b.identity.name)}`),
      roleUid: ref(b.role.uid, `role ${JSON.stringify(b.role.name)}`),
    });
  }

  if (snap.identityProviders.length) body.push("", "  // Identity providers. The API never returns client secrets: they come from secret config.");
  const idpRepeats = repeated(snap.identityProviders, (p) => p.name);
  for (const p of byPath(snap.identityProviders, inGroup((p) => parentOf(p.uid), (p) => p.name))) {
    const name = namer.take(candidates(p.name, parentOf(p.uid), "idp", idpRepeats(p)), "identity-provider");
    const key = camel(`${name.logical}-client-secret`);
    secrets.push({ key, about: `OIDC client secret of identity provider ${JSON.stringify(p.name)} (client id ${p.oidc.clientId})` });
    declare(
      "IdentityProvider",
      name,
      p.uid,
      compact({
        groupUid: ref(parentOf(p.uid), "group"),
        name: p.name,
        description: p.description,
        defaultRoleUid: p.defaultRole ? ref(p.defaultRole, "role") : undefined,
        oidc: {
          issuer: p.oidc.issuer,
          clientId: p.oidc.clientId,
          clientSecret: code(`config.requireSecret(${JSON.stringify(key)})`),
          additionalScopes: p.oidc.additionalScopes,
        },
      }),
    );
  }

  if (snap.accountAssociations.length) body.push("", "  // Account associations (one per group).");
  for (const a of byPath(snap.accountAssociations, (a) => treeKey(a.uid))) {
    const name = namer.take([`${pathOf(a.uid) || snap.root.name}-accounts`, `${a.name}-accounts`], "accounts");
    const blocks = Object.fromEntries(ACCOUNT_BLOCKS.filter((k) => a[k] !== undefined).map((k) => [k, a[k]]));
    declare("AccountAssociation", name, a.uid, compact({ groupUid: ref(a.uid, "group"), name: a.name, description: a.description, ...blocks }));
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
