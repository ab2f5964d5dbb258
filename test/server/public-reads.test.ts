/**
 * Anonymous reads of public registry repos and their tags (spec, Authentication 6): no token
 * needed for public repos; nothing private leaks through Get, totalCount, filters, ordering or
 * page tokens; a token that is present is checked; every other route still needs one.
 */
import { describe, expect, it } from "vitest";
import { listAll, path, startTestServer, useServer } from "../support/server";
import { expectError, expectFieldViolation, ok } from "../support/server-helpers";

const digest = (n: number) => `sha256:${String(n).padStart(64, "0")}`;
const tags = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `1.${i}`, digest: digest(i + 1) }));

// Names interleave so that private repos sit between public ones in every order.
const ctx = useServer({
  fixtures: {
    groups: [{ path: "eng" }],
    repos: [
      { name: "a-public", visibility: "public", tags: tags(3) },
      { name: "b-private", visibility: "private", tags: tags(2) },
      { name: "c-public", visibility: "public", group: "eng", tags: tags(1) },
      { name: "d-private", tags: tags(4) }, // default: private
      { name: "e-public", visibility: "public" },
      { name: "f-private", group: "eng", visibility: "private" },
      { name: "same", visibility: "public" },
      { name: "same", group: "eng", visibility: "private" },
    ],
  },
});
const anon = () => ctx.api.as(null);

describe("anonymous reads", () => {
  it("list only public repos, with totalCount counting only those, under any filter and order", async () => {
    const all = await listAll(ctx.api, "repos");
    expect(all.length).toBe(8);
    const pub = all
      .filter((r) => r.visibility === "public")
      .map((r) => r.uid)
      .sort();
    expect(pub.length).toBe(4);

    for (const order_by of [undefined, "name", "name desc", "create_time desc", "uid desc"]) {
      const res = ok(await anon().get(path("repos"), { order_by, page_size: 200 }));
      expect(res.totalCount).toBe("4");
      expect(res.repos.map((r: { uid: string }) => r.uid).sort()).toEqual(pub);
      for (const r of res.repos) expect(r.visibility).toBe("public");
    }
    // Filters: the private "same" in eng does not count; descendants_of eng shows only c-public.
    const same = ok(await anon().get(path("repos"), { name: "same" }));
    expect({ n: same.totalCount, names: same.repos.map((r: { name: string }) => r.name) }).toEqual({ n: "1", names: ["same"] });
    const eng = all
      .find((r) => r.name === "c-public")
      .uid.split("/")
      .slice(0, 2)
      .join("/");
    const inEng = ok(await anon().get(path("repos"), { "uidp.descendants_of": eng }));
    expect({ n: inEng.totalCount, names: inEng.repos.map((r: { name: string }) => r.name) }).toEqual({ n: "1", names: ["c-public"] });
    expect(ok(await anon().get(path("repos"), { name: "b-private" }))).toMatchObject({ repos: [], totalCount: "0" });
    expect(ok(await anon().get(path("repos"), { "uidp.ids": all.map((r) => r.uid) })).totalCount).toBe("4");
  });

  it("page through public repos only, and page tokens do not cross between anonymous and authenticated walks", async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = ok(await anon().get(path("repos"), { page_size: 1, order_by: "name", page_token: token }));
      expect(res.totalCount).toBe("4");
      seen.push(...res.repos.map((r: { name: string }) => r.name));
      token = res.nextPageToken;
      pages++;
      if (pages === 2) {
        // An anonymous cursor is not an authenticated one, and the other way round.
        expectFieldViolation(await ctx.api.get(path("repos"), { page_size: 1, order_by: "name", page_token: token }), "page_token");
      }
    } while (token);
    expect(seen).toEqual(["a-public", "c-public", "e-public", "same"]);
    const authed = ok(await ctx.api.get(path("repos"), { page_size: 1, order_by: "name" }));
    expectFieldViolation(await anon().get(path("repos"), { page_size: 1, order_by: "name", page_token: authed.nextPageToken }), "page_token");
    // skip counts public items only.
    const skipped = ok(await anon().get(path("repos"), { order_by: "name", skip: 2 }));
    expect({ skipped: skipped.skipped, names: skipped.repos.map((r: { name: string }) => r.name) }).toEqual({ skipped: 2, names: ["e-public", "same"] });
  });

  it("get a public repo and its tags; a private or missing one answers the same UNAUTHENTICATED", async () => {
    const all = await listAll(ctx.api, "repos");
    const pub = all.find((r) => r.name === "a-public");
    const priv = all.find((r) => r.name === "b-private");
    expect(ok(await anon().get(path("repos", pub.uid)))).toEqual(pub);
    const t = ok(await anon().get(path("tags"), { "uidp.children_of": pub.uid }));
    expect(t.totalCount).toBe("3");
    expect(ok(await anon().get(path("tags", t.tags[0].uid)))).toEqual(t.tags[0]);

    const privTags = await listAll(ctx.api, "tags", { "uidp.children_of": priv.uid });
    expect(privTags.length).toBe(2);
    const missing = `${pub.uid.split("/")[0]}/00000000000000ff`;
    const answers = [];
    for (const [col, uid] of [
      ["repos", priv.uid],
      ["repos", missing],
      ["tags", privTags[0].uid],
      ["tags", `${missing}/00000000000000ff`],
    ] as const) {
      const res = await anon().get(path(col, uid));
      answers.push(expectError(res, "UNAUTHENTICATED").message.replace(uid, "<uid>"));
    }
    expect(answers[0]).toMatch(/not public.*Authorization: Bearer/);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[3]).toBe(answers[2]);
    // Every tag listed anonymously belongs to a public repo: 3 + 1 (c-public), not the private 6.
    expect(ok(await anon().get(path("tags"))).totalCount).toBe("4");
    expect(ok(await anon().get(path("tags"), { "uidp.children_of": priv.uid })).totalCount).toBe("0");
  });

  it("check a token that is present: a bad one is refused even on a public repo", async () => {
    const pub = (await listAll(ctx.api, "repos", { name: "a-public" }))[0];
    for (const authorization of ["Bearer not-a-jwt", "Bearer ", "", "Basic abc"]) {
      const res = await ctx.api.request("GET", path("repos", pub.uid), { token: null, headers: { authorization } });
      expectError(res, "UNAUTHENTICATED");
      expectError(await ctx.api.request("GET", path("repos"), { token: null, headers: { authorization } }), "UNAUTHENTICATED");
    }
    const expired = await ctx.server.issueToken(`${ctx.server.organization}/0000000000000001`, -10);
    expectError(await ctx.api.as(expired).get(path("repos", pub.uid)), "UNAUTHENTICATED");
    // An identity without grants sees nothing, not the public set: a token means "as this identity".
    const nobody = (
      ok(
        await ctx.api.post(path("identities", ctx.server.organization), {
          name: "nobody",
          claimMatch: { issuer: "https://issuer.example", subject: "x" },
        }),
      ) as { uid: string }
    ).uid;
    expect(ok(await ctx.api.as(await ctx.server.issueToken(nobody)).get(path("repos"))).totalCount).toBe("0");
  });

  it("refuse every write and every non-registry route without a token", async () => {
    const org = ctx.server.organization;
    const pub = (await listAll(ctx.api, "repos", { name: "a-public" }))[0];
    for (const [method, p] of [
      ["POST", path("repos", org)],
      ["PATCH", path("repos", pub.uid)],
      ["DELETE", path("repos", pub.uid)],
      ["POST", path("groups", org)],
      ["GET", path("groups")],
      ["GET", path("groups", org)],
      ["GET", path("roles")],
      ["GET", path("advisories")],
      ["DELETE", path("groups", org)],
      ["PUT", path("repos", pub.uid)],
    ] as const) {
      const res = await ctx.api.request(method, p, { token: null, body: method === "GET" || method === "DELETE" ? undefined : { name: "x" } });
      expectError(res, "UNAUTHENTICATED");
    }
  });
});

describe("the built-in sample", () => {
  it("has public and private repos", async () => {
    const s = await startTestServer();
    try {
      const all = await listAll(s.api, "repos");
      const pub = ok(await s.api.as(null).get(path("repos"), { page_size: 200 }));
      const n = Number(pub.totalCount);
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(all.length);
      expect(n).toBe(all.filter((r) => r.visibility === "public").length);
    } finally {
      await s.close();
    }
  });

  it("refuses a fixture repo with an unknown visibility, naming the field", async () => {
    await expect(startTestServer({ fixtures: { repos: [{ name: "x", visibility: "internal" as "public" }] } })).rejects.toThrow(/repos\.0\.visibility/);
  });
});
