/**
 * A custom role that creates and reads repos' deployments, for tests and the Terraform fixture's
 * regeneration. No built-in role holds `registry.deployments.create`, and an organization's owner
 * cannot define a role with a capability it lacks, so it is written into the store by a seed (as
 * the platform may grant one).
 */
import type { Store } from "../store";
import { bindingRecord } from "../model/roleBindings";

/** The custom role's uid under `org`, and its binding's. */
export const deployerRole = (org: string): string => `${org}/de9107e700000001`;

/**
 * A seed that defines, at the root, the custom role `deployer` (create and read deployments) and
 * binds `identity` (default: the start-line admin, `<org>/0000000000000001`) to it.
 */
export function seedDeployer(identity?: (org: string) => string) {
  return (store: Store, org: string): void => {
    const now = new Date().toISOString();
    const uid = deployerRole(org);
    store.roles.insert({
      uid,
      name: "deployer",
      description: "Creates and reads repos' deployments.",
      capabilities: ["registry.deployments.create", "registry.deployments.list"],
      createTime: now,
      updateTime: now,
      builtin: false,
    });
    store.putBinding(bindingRecord(`${org}/de9107e700000002`, identity?.(org) ?? `${org}/0000000000000001`, uid, now));
  };
}
