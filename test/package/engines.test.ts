import Fastify from "fastify";
import semver from "semver";
import { describe, expect, it } from "vitest";
import lock from "../../package-lock.json";
import pkg from "../../package.json";

// The Node range package.json declares must be true of what `npm install` puts in the tree:
// every package that runs in production accepts the oldest Node the range allows, so npm prints
// no EBADENGINE warning there (cookie@2, through fastify -> light-my-request, wants Node 22; the
// `overrides` entry keeps cookie 1.x, which supports Node 18 and up).

const oldest = semver.minVersion(pkg.engines.node)!.version;
const packages = Object.entries(lock.packages as Record<string, { version?: string; dev?: boolean; engines?: { node?: string } | string[] }>);

describe("engines", () => {
  it("the lock file is in step with package.json's engines", () => {
    expect((lock.packages as Record<string, { engines?: unknown }>)[""].engines).toEqual(pkg.engines);
  });

  it(`every production dependency accepts Node ${oldest}, the oldest the package declares`, () => {
    const refusing = packages
      .filter(([, p]) => !p.dev && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it("fastify's inject (light-my-request) works with the cookie version the overrides pin", async () => {
    const app = Fastify();
    app.get("/echo", async (req, reply) => reply.header("set-cookie", "seen=1; Path=/").send({ cookie: req.headers.cookie }));
    const res = await app.inject({ method: "GET", url: "/echo", cookies: { session: "abc" } });
    expect(res.json()).toEqual({ cookie: "session=abc" });
    expect(res.cookies).toEqual([{ name: "seen", value: "1", path: "/" }]);
    await app.close();
  });
});
