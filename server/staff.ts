/**
 * The platform's own staff, as an operator may declare it (`irv-server --staff`,
 * `startServer({ staff: true })`): one identity outside every organization whose callers hold the
 * capabilities the platform keeps for itself (internal only: no role of an organization may hold
 * them, `registry.deployments.update` among them) and the rest of a repo deployment's. On the
 * platform such identities belong to Chainguard; offline, tests and users need one to exercise
 * what only staff may do (change or clear a repo's deployment). Without `--staff` there is none,
 * and the server is what an organization's caller sees of the platform.
 */
import { CAPABILITIES, isInternalOnly, type Capability } from "../api/capabilities";

/** The staff identity's uid: under a root no organization has (organizations' roots are random). */
export const STAFF_UID = `${"0".repeat(40)}/5747aff000000001`;

/** What staff hold, on every group: the internal-only capabilities and a repo deployment's. */
export const STAFF_CAPABILITIES: ReadonlySet<string> = new Set<string>([
  ...CAPABILITIES.filter((c: Capability) => isInternalOnly(c)),
  "registry.deployments.create",
  "registry.deployments.list",
]);
