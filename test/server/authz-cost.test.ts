/**
 * What authorization and list scoping cost a caller follows its bindings linearly (issue 19, item
 * 3): a caller bound on many sibling groups (none covering another) lists over real HTTP, and the
 * steps of authorization and the items the listing looks at are counted, never timed. Four times
 * the bindings cost at most four times the work, for every kind of list request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bindingRecord } from "../../server/model/roleBindings";
import { builtinRoleUid, seedGroups, startServer, type RunningServer, type Store } from "../../server";
import { apiFor, path, type Query } from "../support/server";
import { workDuring } from "../support/work";
import { ok } from "../support/server-helpers";

const GROUPS = 4_000;
const SIZES = [500, 2_000];
let server: RunningServer;
let store: Store;
let groups: string[];
let identity: string;

beforeAll(async () => {
  server = await startServer({
    fixtures: {},
    record: false,
    seed: (s, org) => {
      store = s;
      groups = seedGroups(s, org, GROUPS).sort();
    },
  });
  const admin = apiFor(server.url, server.token);
  identity = ok(await admin.post(path("identities", server.organization), { name: "many", claimMatch: { issuer: "https://ci.example", subject: "s" } })).uid;
}, 60_000);
afterAll(async () => server?.close());

/** Binds the identity as viewer on the first `n` sibling groups (straight into the store), dropping other bindings. */
function bindOn(n: number): void {
  for (const b of store.bindingsOf(identity)) store.removeBinding(b.uid);
  const viewer = builtinRoleUid("viewer");
  const time = new Date().toISOString();
  for (let i = 0; i < n; i++) store.putBinding(bindingRecord(`${groups[i]}/${(i + 1).toString(16).padStart(16, "0")}`, identity, viewer, time));
}

async function workOf(query: Query, collection: "groups" | "roleBindings" = "groups"): Promise<number> {
  const api = apiFor(server.url, await server.issueToken(identity));
  const { work } = await workDuring(server, async () => ok(await api.get(path(collection), query)));
  return work.authzSteps + work.listExamined;
}

describe("a caller's list requests cost work linear in its bindings", () => {
  it("for plain, ordered, name-filtered and scoped lists of groups and bindings", async () => {
    const queries: [string, Query, ("groups" | "roleBindings")?][] = [
      ["first page", { page_size: 1 }],
      ["full page", { page_size: 200 }],
      ["by name", { order_by: "name desc", page_size: 200 }],
      ["exact name", { name: "group-000001" }],
      ["scoped", { "uidp.descendants_of": "" }],
      ["bindings", { page_size: 200 }, "roleBindings"],
    ];
    const work: Record<string, number[]> = {};
    for (const n of SIZES) {
      bindOn(n);
      for (const [label, q, collection] of queries) {
        const query = { ...q };
        if (label === "scoped") query["uidp.descendants_of"] = groups[n - 1];
        await workOf(query, collection); // caches (sorted views of this data) are built once, not per request
        (work[label] ??= []).push(await workOf(query, collection));
      }
    }
    const [small, large] = SIZES;
    for (const [label, [w1, w2]] of Object.entries(work)) {
      // Linear: four times the bindings, at most four times the work (plus a page); quadratic would be sixteen.
      expect(w2, `${label}: ${w1} -> ${w2}`).toBeLessThanOrEqual((large / small) * w1 + 400);
      // And a few steps per binding at most (group depth is 1 here), plus the page.
      expect(w2, label).toBeLessThanOrEqual(4 * large + 400);
    }
  }, 120_000);
});
