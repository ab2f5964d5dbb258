/** /vulnerabilities/v2beta1/advisories: read-only, loaded from fixtures, kept under the organization. */
import { EVENT_TYPE_FILTERS, REVIEW_STATES, eventTypeOf, eventTypeOfFilter, type AdvisoryEvent } from "../../api/advisories";
import { parentOf } from "../../api/uid";
import type { ListFilter } from "../list";
import { enumValue } from "../list/query";
import { fields } from "../model";
import type { AdvisoryRecord } from "../store";
import { parentGroup, type CollectionRoutes } from "./collection";

/** A repeatable filter matching any value against a string or list field. */
const anyOf = (get: (a: AdvisoryRecord) => string | string[] | undefined): ListFilter<AdvisoryRecord> => ({
  repeated: true,
  match: (a, values) => {
    const v = get(a) ?? "";
    return Array.isArray(v) ? v.some((x) => values.includes(x)) : values.includes(v);
  },
});

/** A repeatable filter on advisories with at least one event whose `get` is one of the values. */
const anyEvent = (get: (e: AdvisoryEvent) => string | undefined, base: Omit<ListFilter<AdvisoryRecord>, "match"> = {}): ListFilter<AdvisoryRecord> => ({
  repeated: true,
  ...base,
  match: (a, values) => a.events.some((e) => values.includes(get(e) ?? "")),
});

/** An enum filter: the value by name or number, read as its name. */
const enumOf = (names: readonly string[]): Omit<ListFilter<AdvisoryRecord>, "match"> => ({
  check: (v) => (enumValue(v, names) ? undefined : `must be one of ${names.join(", ")} (or its number)`),
  normalize: (v) => enumValue(v, names)!,
});

/** An event's type as an EventTypeFilter name (`fixNotPlanned` -> `EVENT_TYPE_FILTER_FIX_NOT_PLANNED`). */
const filterOfEvent = (e: AdvisoryEvent) => EVENT_TYPE_FILTERS.find((f) => f !== EVENT_TYPE_FILTERS[0] && eventTypeOfFilter(f) === eventTypeOf(e));

/** The advisory's most recent approved event, if any. */
function latestApproved(a: AdvisoryRecord): AdvisoryEvent | undefined {
  let latest: AdvisoryEvent | undefined;
  for (const e of a.events)
    if (e.reviewState === "REVIEW_STATE_APPROVED" && (!latest || Date.parse(e.createTime ?? "") >= Date.parse(latest.createTime ?? ""))) latest = e;
  return latest;
}

/** An advisory as the gateway writes it: unset optional fields and messages as null. */
function render(a: AdvisoryRecord): unknown {
  return {
    ...a,
    deleteTime: a.deleteTime ?? null,
    legacyAdvisoryId: a.legacyAdvisoryId ?? null,
    events: a.events.map((e) => ({ ...e, issue: e.issue ?? null })),
  };
}

export const advisoryRoutes: CollectionRoutes<AdvisoryRecord> = {
  label: "advisory",
  capability: "advisories",
  items: (ctx) => ctx.store.advisories,
  groupOf: parentGroup,
  list: {
    name: "advisories",
    sortable: fields<AdvisoryRecord>(
      "uid",
      "advisoryId",
      "author",
      "artifactName",
      "artifactType",
      "artifactArchitecture",
      "componentName",
      "componentType",
      "componentLocation",
      "createTime",
      "updateTime",
    ),
    // ListAdvisoriesRequest's filters, by proto name.
    filters: {
      advisory_ids: anyOf((a) => a.advisoryId),
      legacy_advisory_ids: anyOf((a) => a.legacyAdvisoryId),
      // `origin`, when given, replaces artifact_names, as the proto says.
      artifact_names: { ...anyOf((a) => a.artifactName), ignoredWith: "origin" },
      artifact_types: anyOf((a) => a.artifactType),
      artifact_architectures: anyOf((a) => a.artifactArchitecture),
      component_names: anyOf((a) => a.componentName),
      component_types: anyOf((a) => a.componentType),
      component_locations: anyOf((a) => a.componentLocation),
      aliases: anyOf((a) => a.aliases),
      // irv-server knows no package origins: each artifact is its own origin.
      origin: { match: (a, [o]) => a.artifactName === o },
      event_review_states: anyEvent((e) => e.reviewState, enumOf(REVIEW_STATES)),
      event_authors: anyEvent((e) => e.author),
      exclude_event_authors: { repeated: true, match: (a, values) => !a.events.some((e) => values.includes(e.author)) },
      event_reviewers: anyEvent((e) => e.reviewer),
      event_types: anyEvent(filterOfEvent, enumOf(EVENT_TYPE_FILTERS)),
      latest_event_type: {
        ...enumOf(EVENT_TYPE_FILTERS),
        match: (a, [t]) => {
          const e = latestApproved(a);
          return e !== undefined && filterOfEvent(e) === t;
        },
      },
      query: {
        // Case-insensitive substring of the artifact, the component or an alias (the proto's fields).
        match: (a, [q]) => {
          const needle = q.toLowerCase();
          return [a.artifactName, a.componentName, ...a.aliases].some((s) => s.toLowerCase().includes(needle));
        },
      },
    },
    groupOf: (a) => parentOf(a.uid),
  },
  render: (_ctx, a) => render(a),
  readOnly: "advisories are read-only in irv-server: load them with --fixtures",
};
