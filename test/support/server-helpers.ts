/** Shared bits of the server tests: quick creators and error assertions. */
import { expect } from "vitest";
import { capabilityEnum, codes, TYPE_PREFIX, type CodeName, type CollectionName } from "../../api";
import { builtinRoleUid } from "../../server";
import { path, type Api, type ApiResponse, type TestServer } from "./server";

/** Asserts an error response: HTTP status and code from the table, ErrorInfo reason; returns the body. */
export function expectError(res: ApiResponse, name: CodeName) {
  const c = codes[name];
  expect({ status: res.status, code: res.body?.code }, res.text).toEqual({ status: c.http, code: c.code });
  expect(res.body.message.startsWith(`${c.label}: `)).toBe(true);
  const info = res.body.details.find((d: { "@type": string }) => d["@type"] === `${TYPE_PREFIX}ErrorInfo`);
  expect(info).toMatchObject({ reason: name, domain: "iam.chainguard.dev" });
  return res.body;
}

/** Asserts INVALID_ARGUMENT with a BadRequest violation on `field`; returns the violations. */
export function expectFieldViolation(res: ApiResponse, field: string) {
  const body = expectError(res, "INVALID_ARGUMENT");
  const br = body.details.find((d: { "@type": string }) => d["@type"] === `${TYPE_PREFIX}BadRequest`);
  expect(br, res.text).toBeDefined();
  expect(
    br.fieldViolations.map((v: { field: string }) => v.field),
    res.text,
  ).toContain(field);
  return br.fieldViolations as { field: string; description: string }[];
}

/** Asserts a 200 and returns the body. */
export function ok<T = any>(res: ApiResponse<T>): T {
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Capabilities as a role's body carries them: the API's enum names (`groups.list` -> `CAP_IAM_GROUPS_LIST`). */
export function wireCaps(caps: readonly string[]): string[] {
  return caps.map(capabilityEnum);
}

export const role = {
  viewer: builtinRoleUid("viewer"),
  editor: builtinRoleUid("editor"),
  owner: builtinRoleUid("owner"),
};

/** Creates an item of `c` under `parent` through the API and returns its body; fails the test on an error. */
export async function created(api: Api, c: CollectionName, parent: string, body: object) {
  return ok(await api.post(path(c, parent), body));
}

export async function mkGroup(api: Api, parent: string, name = "grp", description?: string) {
  return created(api, "groups", parent, { name, description });
}

export async function mkIdentity(api: Api, group: string, name = "ci-bot", extra: object = {}) {
  return ok(
    await api.post(path("identities", group), {
      name,
      claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: `repo:acme/${name}` },
      ...extra,
    }),
  );
}

export async function bind(api: Api, group: string, identityUid: string, roleUid: string) {
  return ok(await api.post(path("roleBindings", group), { identityUid, roleUid }));
}

/** The callers of `group` the authorization tests use: a viewer, an editor, and one whose role lists groups only. */
export type Callers = Record<"viewer" | "editor" | "blind", Api>;

/** Binds a viewer, an editor and a groups-only identity on `group`: their clients, and their tokens (for gRPC). */
export async function callersOn(ctx: TestServer, group: string): Promise<{ as: Callers; tokens: Record<keyof Callers, string> }> {
  const groupsOnly = await created(ctx.api, "roles", group, { name: "groups-only", capabilities: wireCaps(["groups.list"]) });
  const as = {} as Callers;
  const tokens = {} as Record<keyof Callers, string>;
  for (const [who, r] of [
    ["viewer", role.viewer],
    ["editor", role.editor],
    ["blind", groupsOnly.uid],
  ] as const) {
    const id = await mkIdentity(ctx.api, group, who);
    await bind(ctx.api, group, id.uid, r);
    tokens[who] = await ctx.server.issueToken(id.uid);
    as[who] = ctx.api.as(tokens[who]);
  }
  return { as, tokens };
}
