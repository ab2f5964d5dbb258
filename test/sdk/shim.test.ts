/**
 * The shim round trip the engine's provider host performs: serialize the SDK's shim the way
 * `dynamic.Resource` does, load the text with require-from-string (as the host does), call
 * `configure`, then CRUD against a live irv-server. The loaded code resolves
 * `pulumi-irv/provider` to the built package (dist/), exactly as an installed program would.
 */
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../api/kinds";
import { shimFor } from "../../dynamic/shim";
import { useServer, path } from "../support/server";

const requireFromString: (code: string) => { handler(): any } = require("require-from-string");
const ctx = useServer();

async function hostLoad(kind: (typeof KINDS)[number]["kind"]) {
  const shim = shimFor(kind);
  const { text } = await pulumi.runtime.serializeFunction(() => shim, { allowSecrets: true });
  return { text, provider: requireFromString(text).handler() };
}

describe("the serialized shim", () => {
  it("stays under 2 KB for every kind", async () => {
    for (const { kind } of KINDS) {
      const { text } = await hostLoad(kind);
      console.log(`serialized __provider of ${kind}: ${text.length} bytes`);
      expect(text.length).toBeLessThan(2048);
    }
  });

  it("configures from the engine's config and runs the installed provider", async () => {
    const { provider } = await hostLoad("groups");
    const config: Record<string, string> = { "irv:apiUrl": ctx.server.url, "irv:token": ctx.server.token };
    await provider.configure({ config: { get: (k: string) => config[k], require: (k: string) => config[k] } });
    for (const m of ["check", "diff", "create", "read", "update", "delete"]) expect(typeof provider[m]).toBe("function");
    const inputs = { parentUid: ctx.server.organization, name: "via-shim", __provider: "x" };
    expect((await provider.check({}, inputs)).failures).toEqual([]);
    const { id, outs } = await provider.create(inputs);
    expect((await ctx.api.get(path("groups", id))).body.name).toBe("via-shim");
    // The host stores the outputs with __provider (a state without it came from the plugin: see movedIn).
    expect((await provider.diff(id, { ...outs, __provider: "x" }, inputs)).changes).toBe(false);
    expect((await provider.diff(id, outs, inputs)).changes).toBe(true);
    expect((await provider.read(id, outs)).props.name).toBe("via-shim");
    await provider.delete(id, outs);
    expect((await ctx.api.get(path("groups", id))).status).toBe(404);
  });
});
