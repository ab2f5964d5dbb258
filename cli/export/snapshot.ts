import type { resources } from "../../api";
import { EXPORTED_KINDS, type ExportedKind } from "../../api/kinds";
import type { Item } from "../../client";

/** A live group subtree as `irv export` reads it: everything it will declare. */
export interface OrgSnapshot {
  /** The API base URL it was read from (for the generated README). */
  apiUrl: string;
  /** The exported group itself: referenced by the program, not managed by it. */
  root: resources.Group;
  /**
   * Each exported kind's items in the subtree: groups below `root` at any depth, custom roles
   * only (built-in roles belong to the platform and are never declared).
   */
  items: { [K in ExportedKind]: Item<K>[] };
  /** Names of roles outside the subtree that something in it refers to (built-ins), by uid. */
  externalRoles: Map<string, string>;
}

/** How many of each kind a snapshot holds, for progress lines and the report. */
export function countsOf(s: OrgSnapshot): Record<string, number> {
  return Object.fromEntries(EXPORTED_KINDS.map((k) => [k, s.items[k].length]));
}
