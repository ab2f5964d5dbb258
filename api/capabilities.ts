/**
 * Every capability a role can hold. Custom roles may name only these; the built-in roles are
 * sets of them. Names follow the platform's: `<collection>.<verb>`.
 */
export const CAPABILITIES = [
  "groups.list", "groups.create", "groups.update", "groups.delete",
  "identity.list", "identity.create", "identity.update", "identity.delete",
  "roles.list", "roles.create", "roles.update", "roles.delete",
  "role_bindings.list", "role_bindings.create", "role_bindings.update", "role_bindings.delete",
  "identity_providers.list", "identity_providers.create", "identity_providers.update", "identity_providers.delete",
  "account_associations.list", "account_associations.create", "account_associations.update", "account_associations.delete",
  "group_invites.list", "group_invites.create", "group_invites.delete",
  "repo.list", "repo.create", "repo.update", "repo.delete",
  "tag.list", "tag.create", "tag.update", "tag.delete",
  "advisories.list",
  "registry.pull", "registry.push",
] as const;

/** One capability name. */
export type Capability = (typeof CAPABILITIES)[number];

const set = new Set<string>(CAPABILITIES);

/** True when `name` is a capability the platform knows. */
export function isCapability(name: string): name is Capability {
  return set.has(name);
}

const lists = CAPABILITIES.filter((c) => c.endsWith(".list"));
const repoWrites = CAPABILITIES.filter((c) => /^(repo|tag)\.(create|update|delete)$/.test(c));
const iamWrites = CAPABILITIES.filter(
  (c) => !/^(repo|tag|registry|advisories)\./.test(c) && !c.endsWith(".list"),
);

/**
 * The built-in roles: they live at the root, cannot be changed or deleted, and have stable uids
 * (see `builtinRoleUid` in the server) so programs and tests can rely on them across restarts.
 */
export const BUILTIN_ROLES: Record<string, { description: string; capabilities: Capability[] }> = {
  viewer: {
    description: "Built-in role: read everything, pull from the registry.",
    capabilities: [...lists, "registry.pull"],
  },
  editor: {
    description: "Built-in role: viewer plus registry writes. Cannot grant roles.",
    capabilities: [...lists, "registry.pull", "registry.push", ...repoWrites],
  },
  owner: {
    description: "Built-in role: editor plus every IAM create, update and delete.",
    capabilities: [...lists, "registry.pull", "registry.push", ...repoWrites, ...iamWrites],
  },
  "registry.pull": {
    description: "Built-in role: pull images.",
    capabilities: ["registry.pull", "repo.list", "tag.list"],
  },
  "registry.push": {
    description: "Built-in role: pull and push images.",
    capabilities: ["registry.pull", "registry.push", "repo.list", "tag.list", "tag.create", "tag.update"],
  },
};
