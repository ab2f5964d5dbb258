/** The test of a List query's filters, item by item. */
import { isSelfOrAncestor, parentOf } from "../../api/uid";
import type { Keyed } from "../store";
import type { Listing } from "./listing";

/** The filter predicate for everything except descendants_of (already applied as ranges). */
export function predicate<T extends Keyed>(spec: Listing<T>, filters: Record<string, string[]>): ((item: T) => boolean) | undefined {
  const tests: ((item: T) => boolean)[] = [];
  for (const [name, values] of Object.entries(filters)) {
    switch (name) {
      case "uidp.descendants_of":
        break;
      case "uidp.children_of":
        tests.push((item) => parentOf(item.uid) === values[0]);
        break;
      case "uidp.ancestors_of":
        tests.push((item) => {
          const g = spec.groupOf(item);
          return g === undefined || isSelfOrAncestor(g, values[0]);
        });
        break;
      case "uidp.in_root":
        // The item itself is at the root (an organization, a person, a built-in role), whatever its group.
        tests.push((item) => !item.uid.includes("/"));
        break;
      case "uidp.ids": {
        const ids = new Set(values);
        tests.push((item) => ids.has(item.uid));
        break;
      }
      default: {
        const f = spec.filters[name];
        if (f.ignoredWith === undefined || filters[f.ignoredWith] === undefined) tests.push((item) => f.match(item, values));
      }
    }
  }
  if (tests.length === 0) return undefined;
  return (item) => tests.every((t) => t(item));
}
