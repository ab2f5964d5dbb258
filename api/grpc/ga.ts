/**
 * The GA v2 API: the same services as v2beta1 but for their package (`chainguard.platform.iam.v2`)
 * and REST paths (`/iam/v2/...`), as the SDK's v2 protos have them. Derived here from the v2beta1
 * records, so both are served from the same definitions; the services v2 dropped (the registry's
 * Overlays and OverlayBindings, the libraries' RequestGroups) are left out.
 */
import type { ProtoPackage } from "./proto";

/** The beta version segment and the GA one. */
export const BETA = "v2beta1";
export const GA = "v2";

/** v2beta1 services the GA v2 packages do not have. */
const NOT_IN_GA = new Set(["OverlaysService", "OverlayBindingsService", "RequestGroupsService"]);

/** A REST path of v2beta1 at v2 (`/iam/v2beta1/groups` -> `/iam/v2/groups`); other paths as they are. */
export const gaPath = (path: string): string => path.replace(`/${BETA}/`, `/${GA}/`);

/** Every string of `v` with v2beta1's package names and paths turned into v2's. */
function toGa<T>(v: T): T {
  if (typeof v === "string") return v.replace(new RegExp(`\\.${BETA}(?=\\.|$)`, "g"), `.${GA}`).replace(`/${BETA}/`, `/${GA}/`) as T;
  if (Array.isArray(v)) return v.map(toGa) as T;
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toGa(x)])) as T;
  return v;
}

/** The GA v2 package of a v2beta1 one, or undefined for any other package. */
export function gaPackage(p: ProtoPackage): ProtoPackage | undefined {
  if (!p.package.endsWith(`.${BETA}`)) return undefined;
  const ga = toGa(p);
  ga.package = `${p.package.slice(0, -BETA.length)}${GA}`;
  if (ga.services) ga.services = Object.fromEntries(Object.entries(ga.services).filter(([name]) => !NOT_IN_GA.has(name)));
  return ga;
}
