/**
 * Every provider function, once: one module per function holds its token, description,
 * arguments (zod, each described) and result fields. The TypeScript SDK's data sources, the
 * resource plugin's Invoke and its schema derive from this list, and the tests walk it.
 */
import { getAdvisories } from "./getAdvisories";
import { getAdvisory } from "./getAdvisory";
import { getGroup } from "./getGroup";
import { getIdentity } from "./getIdentity";
import { getRepo } from "./getRepo";
import { getRepos } from "./getRepos";
import { getRole } from "./getRole";
import { getRoles } from "./getRoles";
import { getTags } from "./getTags";
import { getVersions } from "./getVersions";

export * from "./definition";
export { OBJECTS } from "./results";
export { getAdvisories, getAdvisory, getGroup, getIdentity, getRepo, getRepos, getRole, getRoles, getTags, getVersions };

/** The functions, in the order the docs list them. */
export const FUNCTIONS = [getGroup, getRole, getRoles, getIdentity, getRepos, getRepo, getTags, getVersions, getAdvisories, getAdvisory] as const;
