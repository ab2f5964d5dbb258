/** /vulnerabilities/v2beta1/advisories: read-only, loaded from fixtures, kept under the organization. */
import { parentOf } from "../../api/uid";
import type { FilterSpec } from "../list";
import { fields } from "../model";
import type { AdvisoryRecord } from "../store";
import { parentGroup, type CollectionRoutes } from "./collection";

/** A repeatable filter matching any value against a string or list field. */
const anyOf = (get: (a: AdvisoryRecord) => string | string[]): FilterSpec<AdvisoryRecord> => ({
  repeated: true,
  match: (a, values) => {
    const v = get(a);
    return Array.isArray(v) ? v.some((x) => values.includes(x)) : values.includes(v);
  },
});

export const advisoryRoutes: CollectionRoutes<AdvisoryRecord> = {
  label: "advisory",
  capability: "advisories",
  items: (ctx) => ctx.store.advisories,
  groupOf: parentGroup,
  list: {
    name: "advisories",
    sortable: fields<AdvisoryRecord>(
      "uid", "advisoryId", "artifactName", "artifactType", "artifactArchitecture",
      "componentName", "componentType", "componentLocation", "createTime", "updateTime",
    ),
    filters: {
      advisoryIds: anyOf((a) => a.advisoryId),
      aliases: anyOf((a) => a.aliases),
      artifactNames: anyOf((a) => a.artifactName),
      componentNames: anyOf((a) => a.componentName),
      query: {
        // Case-insensitive substring of the id, aliases, artifact or component.
        match: (a, [q]) => {
          const needle = q.toLowerCase();
          return [a.advisoryId, ...a.aliases, a.artifactName, a.componentName].some((s) => s.toLowerCase().includes(needle));
        },
      },
    },
    groupOf: (a) => parentOf(a.uid),
  },
  render: (_ctx, a) => a,
  readOnly: "advisories are read-only in irv-server: load them with --fixtures",
};
