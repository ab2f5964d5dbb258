/**
 * docs/api-coverage.md: what it says is so. It names every method the proto record (api/grpc) lists, with
 * what pulumi-irv sends; and every method it marks served really answers on a live irv-server over
 * REST, at its mapping: no 404, no 405, no UNIMPLEMENTED.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { Client, credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { GRPC_PACKAGES, ruleText, type ProtoMethod } from "../../api/grpc";
import { SDK_SERVICES } from "../../api/grpc/catalog";
import { KINDS, type Kind, type KindDefinition } from "../../api/kinds";
import { COVERAGE_PAGE, isServed, restCell, restPathOf, unrecordedServices } from "../../scripts/docs/coverage";
import { DOCS_DIR } from "../../scripts/gen-docs";
import { makeEveryKind, type EveryKind } from "../support/every-kind";
import { listAll, useServer } from "../support/server";
import { goTool } from "../support/tools";
import { seedDeployer } from "../support/deployments";

const page = () => readFileSync(path.join(DOCS_DIR, COVERAGE_PAGE), "utf8");

/** Every method of every service, with its package, service and REST prefix. */
const METHODS = GRPC_PACKAGES.flatMap((p) =>
  Object.entries(p.services ?? {}).flatMap(([service, s]) =>
    Object.entries(s.methods).map(([name, m]) => ({ pkg: p.package, service, name, m, prefix: s.restPrefix ?? "" })),
  ),
);

describe("docs/api-coverage.md", () => {
  it("names every service and method of the proto record, with its mapping and whether irv-server serves it", () => {
    const text = page();
    expect(METHODS.length).toBeGreaterThan(60);
    for (const { pkg, service, name, m } of METHODS) {
      expect(text).toContain(`### \`${pkg}.${service}\``);
      const row = `| \`${name}\` | ${restCell(m)} |`;
      expect(text, row).toContain(row);
      const line = text.split("\n").find((l) => l.startsWith(row) && text.indexOf(`### \`${pkg}.${service}\``) < text.indexOf(l))!;
      expect(line, row).toMatch(isServed(m) ? /\| yes \| yes \|$/ : /\| no \| no: answers `UNIMPLEMENTED` \|$/);
    }
  });

  it("says what pulumi-irv sends: proto mask paths, enum names, field behaviour", () => {
    const text = page();
    for (const d of KINDS as readonly KindDefinition[]) expect(text).toContain(`### \`${d.proto.message}\``);
    expect(text).toContain("`oidc.client_secret`");
    expect(text).toContain("`default_role`");
    expect(text).toMatch(/\| `CAP_IAM_GROUPS_LIST` \| 103 \| `groups\.list` \|/);
    expect(text).toMatch(/\| `SERVICE_PRINCIPAL_CATALOG_SYNCER` \| 3 \|/);
    expect(text).toMatch(/\| `ttl` \| `ttl` \| 4 \| `google\.protobuf\.Duration` \| required, input only \| yes \|/);
    expect(text).toMatch(/\| `expirationTime` \| `expiration_time` \| 5 \| `google\.protobuf\.Timestamp` \| output only \|/);
    expect(text).toContain("Refused at preview: `CAP_INTERNAL`");
  });
});

describe("every method the page marks served, on a live irv-server over REST", () => {
  // The admin also holds a custom role with registry.deployments.create: no built-in role has it.
  const ctx = useServer({ seed: seedDeployer() });

  /**
   * A request to `m`'s mapping: its path variables filled with live uids (a parent with a group's,
   * or for a tag a repo's; v1's `repo_id` with a repo's; an item's uid with one of the collection's),
   * an empty body where it takes one.
   */
  function requestOf(
    m: Extract<ProtoMethod, { request: string }>,
    prefix: string,
    uidOf: (collection: string) => string,
  ): { method: string; url: string; body?: object } {
    const url = restPathOf(m, prefix).replace(/\{(\w+)[^}]*\}/g, (_, v: string) =>
      uidOf(v.startsWith("parent") ? "parent" : v === "repo_id" ? "repos" : m.http.path.split("/")[3]),
    );
    return { method: m.http.method.toUpperCase(), url, ...(m.http.body === undefined ? {} : { body: {} }) };
  }

  it("answers at its mapping (no 404, 405 or UNIMPLEMENTED, no 5xx)", async () => {
    const { server, api } = ctx;
    // Items of their own for each version, so a v2beta1 delete leaves the v2 and v1 ones to delete.
    const v2 = await makeEveryKind(api, server.organization, "coverage-v2");
    const v1 = await makeEveryKind(api, server.organization, "coverage-v1");
    const ga = await makeEveryKind(api, server.organization, "coverage-ga");
    const ITEM: Record<Kind, keyof EveryKind> = {
      groups: "subteam",
      identities: "syncer",
      roles: "deployer",
      roleBindings: "binding",
      identityProviders: "sso",
      accountAssociations: "accounts",
      groupInvites: "invite",
      subscriptions: "subscription",
      repos: "repo",
      tags: "tag",
      // A deployment's path names its repo (and a deployment is made first: see below).
      repoDeployments: "repo",
    };
    const others: Record<string, string> = {};
    for (const c of ["advisories"] as const) others[c] = (await listAll(api, c, { "uidp.descendants_of": server.organization, page_size: 1 }))[0].uid;
    // Package versions are named by package, not uid: one the sample has.
    others.versions = "nodejs";
    // Registry v1's count of the repos synced from a repo is named by that repo.
    others.repocountbysource = v1.repo;
    const made = (pkg: string) => (pkg.endsWith(".v2beta1") ? v2 : pkg.endsWith(".v2") ? ga : v1);

    const served = METHODS.flatMap((x) => ("request" in x.m ? [{ ...x, m: x.m }] : []));
    // A repo's deployment made first (Get answers NOT_FOUND for a repo without one); deletes last,
    // in the reverse of the kinds' order (bindings before roles and identities, groups last).
    const deployment = (m: (typeof served)[number]["m"]) => m.http.path.endsWith("/deployment");
    const order = (x: (typeof served)[number]) => {
      if (x.m.http.method === "delete") return 1000 - KINDS.findIndex((k) => x.m.http.path.split("/")[3] === k.kind);
      return deployment(x.m) && x.m.http.method === "post" ? -1 : 0;
    };
    served.sort((a, b) => order(a) - order(b));
    expect(served.length).toBeGreaterThan(40);

    for (const { pkg, service, name, m, prefix } of served) {
      // A tag's parent (and a deployment's) is a repo; every other kind's, a group.
      const parent = m.http.path.split("/")[3] === "tags" || deployment(m) ? made(pkg).repo : made(pkg).team;
      const r = requestOf(m, prefix, (c) => (c === "parent" ? parent : c in ITEM ? made(pkg)[ITEM[c as Kind]] : others[c]));
      // A deployment with no charts is none: the one made first holds one.
      const body = deployment(m) && r.body ? { charts: [{ repo: "oci://example.test/charts/coverage" }] } : r.body;
      const res = await api.request(r.method, r.url, body ? { body } : {});
      const code = typeof res.body === "object" ? res.body?.code : undefined;
      expect([404, 405, 501], `${pkg}.${service}/${name} ${r.method} ${r.url}: ${res.status} ${res.text}`).not.toContain(res.status);
      expect(code, `${pkg}.${service}/${name}: ${res.text}`).not.toBe(12);
      expect(res.status, `${pkg}.${service}/${name}: ${res.text}`).toBeLessThan(500);
    }
  });
});

/** The SDK's services and methods as its own descriptors list them, or its .proto files for the packages the tool cannot link (test/tools/cmd/services). */
function sdkServices(): Record<string, Record<string, string>> {
  const modcache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  const out = execFileSync(goTool("services"), ["-protos", path.join(modcache, "chainguard.dev", "sdk@v0.1.212")], { encoding: "utf8", maxBuffer: 16 << 20 });
  const services: Record<string, Record<string, string>> = {};
  for (const l of out.trim().split("\n")) {
    const x = JSON.parse(l) as { service: string; method: string; linked: boolean; http?: { method: string; path: string; body?: string } };
    const rule = x.http ? `${x.http.method} ${x.http.path}${x.http.body ? ` body=${x.http.body}` : ""}` : "";
    (services[x.service] ??= {})[x.method] = rule;
  }
  return services;
}

describe("docs/api-coverage.md against the SDK itself", () => {
  const ctx = useServer();

  it("lists every service and method of the SDK, as the SDK's own descriptors have them", () => {
    const sdk = sdkServices();
    expect(Object.keys(sdk).length).toBeGreaterThan(80);
    // The project's record of the SDK is the SDK's, method for method, mapping for mapping.
    expect(SDK_SERVICES).toEqual(sdk);
    const text = page();
    for (const [service, methods] of Object.entries(sdk)) {
      const at = text.indexOf(`### \`${service}\``);
      expect(at, service).toBeGreaterThan(0);
      const table = text.slice(at, text.indexOf("\n\n", text.indexOf("|---", at)));
      for (const m of Object.keys(methods)) expect(table, `${service}/${m}`).toContain(`| \`${m}\` |`);
    }
    for (const s of [
      "chainguard.platform.iam.v2beta1.ExternalGroupRoleMappingsService",
      "chainguard.platform.iam.v2beta1.TermsService",
      "chainguard.platform.registry.v2beta1.ImagesService",
      "chainguard.platform.registry.v2beta1.OverlaysService",
      "chainguard.platform.registry.v2beta1.OverlayBindingsService",
      "chainguard.platform.ecosystems.Entitlements",
    ])
      expect(text).toContain(`### \`${s}\``);
  });

  it("records the services irv-server knows as the SDK has them: every method, each REST mapping", () => {
    for (const p of GRPC_PACKAGES)
      for (const [service, s] of Object.entries(p.services ?? {})) {
        const full = `${p.package}.${service}`;
        const sdk = SDK_SERVICES[full];
        expect(sdk, full).toBeDefined();
        expect(Object.keys(s.methods).sort(), full).toEqual(Object.keys(sdk).sort());
        for (const [name, m] of Object.entries(s.methods)) expect(ruleText(m), `${full}/${name}`).toBe(sdk[name]);
      }
  });

  it("is true of irv-server: every method of the services it does not know answers UNIMPLEMENTED", async () => {
    // A plain client: these services are in no descriptor the project builds, so the call is an empty message.
    const client = new Client(new URL(ctx.server.url).host, credentials.createInsecure());
    const md = new Metadata();
    md.set("authorization", `Bearer ${ctx.server.token}`);
    const call = (service: string, method: string) =>
      new Promise<string>((resolve) =>
        client.makeUnaryRequest(
          `/${service}/${method}`,
          (b: Buffer) => b,
          (b: Buffer) => b,
          Buffer.alloc(0),
          md,
          (err: ServiceError | null) => resolve(err ? status[err.code] : "OK"),
        ),
      );
    try {
      const unknown = unrecordedServices();
      expect(unknown.length).toBeGreaterThan(40);
      for (const [service, methods] of unknown)
        for (const m of Object.keys(methods)) expect([await call(service, m), `${service}/${m}`]).toEqual(["UNIMPLEMENTED", `${service}/${m}`]);
    } finally {
      client.close();
    }
  });
});
