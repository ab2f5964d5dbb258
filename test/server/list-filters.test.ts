/**
 * A kind's List filters are named once, in its definition (`proto.list.filters`, from which the
 * gRPC request messages are built): irv-server's routes must match every one of them, by filter
 * or by hidden-item flag, and no other.
 */
import { describe, expect, it } from "vitest";
import { definitionOf, KINDS, type Kind, type KindDefinition } from "../../api/kinds";
import { eachV1Collection } from "../../server/routes/all";

describe("List filters", () => {
  it("each kind's routes filter by exactly the names its definition gives", () => {
    const seen: Kind[] = [];
    eachV1Collection((routes) => {
      const kind = routes.list.name as Kind;
      seen.push(kind);
      const served = [...Object.keys(routes.list.filters), ...Object.keys(routes.list.hidden ?? {})].sort();
      expect({ kind, served }).toEqual({ kind, served: Object.keys((definitionOf(kind) as KindDefinition).proto.list?.filters ?? {}).sort() });
    });
    // A singleton (a repo's deployment) has no List, so no collection routes.
    expect(seen).toEqual(KINDS.filter((d) => !("singleton" in d)).map((d) => d.kind));
  });
});
