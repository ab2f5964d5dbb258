/**
 * When `irv drift` reads a stack's resources itself and when the engine's refresh must
 * (cli/drift/direct.ts): the engine is needed for any resource irv's providers do not read the
 * way the engine would. That both give the same report is proven through the engine, on every
 * kind, in test/e2e/batched-refresh.test.ts. And `irv` starts without the Automation API, which
 * it loads only when a command opens a stack through it (cli/stack.ts).
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { needsEngine } from "../../cli/drift/direct";
import { runNode } from "../support/cli";
import { repoRoot } from "../support/engine";

const STACK = "urn:pulumi:prod::org::pulumi:pulumi:Stack::org-prod";
const PLUGIN = "urn:pulumi:prod::org::pulumi:providers:irv::default_0_1_0";
const NODEJS = "urn:pulumi:prod::org::pulumi:providers:pulumi-nodejs::default";
const EXPLICIT = "urn:pulumi:prod::org::pulumi:providers:irv::other";

type R = { urn: string; type: string; custom: boolean; id?: string; provider?: string; delete?: boolean; pendingReplacement?: boolean };
const state = (...resources: R[]): Deployment => ({ version: 3, deployment: { resources } });
const base: R[] = [
  { urn: STACK, type: "pulumi:pulumi:Stack", custom: false },
  { urn: PLUGIN, type: "pulumi:providers:irv", custom: true, id: "p1" },
  { urn: NODEJS, type: "pulumi:providers:pulumi-nodejs", custom: true, id: "p2" },
  { urn: "urn:pulumi:prod::org::acme:index:Team::platform", type: "acme:index:Team", custom: false },
  { urn: "urn:pulumi:prod::org::irv:iam:Group::eng", type: "irv:iam:Group", custom: true, id: "o/g", provider: `${PLUGIN}::p1` },
  {
    urn: "urn:pulumi:prod::org::pulumi-nodejs:dynamic/irv:Role::reader",
    type: "pulumi-nodejs:dynamic/irv:Role",
    custom: true,
    id: "o/r",
    provider: `${NODEJS}::p2`,
  },
];

describe("irv drift reads a stack itself, or through the engine's refresh", () => {
  it("reads itself a stack of irv resources on default providers, components and the stack resource included", () => {
    expect(needsEngine(state(...base))).toBeUndefined();
  });

  it.each<[string, R, string]>([
    [
      "another provider's resource",
      { urn: "urn:pulumi:prod::org::random:index:RandomPet::pet", type: "random:index:RandomPet", custom: true, id: "x" },
      "::pet is not an irv resource",
    ],
    [
      "a dynamic resource of the program's own",
      { urn: "urn:pulumi:prod::org::pulumi-nodejs:dynamic:Resource::mine", type: "pulumi-nodejs:dynamic:Resource", custom: true, id: "x" },
      "::mine is not an irv resource",
    ],
    [
      "an irv resource on an explicit provider",
      { urn: "urn:pulumi:prod::org::irv:iam:Group::far", type: "irv:iam:Group", custom: true, id: "o/f", provider: `${EXPLICIT}::p3` },
      "::far has an explicit provider",
    ],
    [
      "a resource waiting to be deleted",
      { urn: "urn:pulumi:prod::org::irv:iam:Group::old", type: "irv:iam:Group", custom: true, id: "o/x", provider: `${PLUGIN}::p1`, delete: true },
      "::old waits to be deleted or replaced",
    ],
    [
      "a resource waiting to be replaced",
      { urn: "urn:pulumi:prod::org::irv:iam:Group::old", type: "irv:iam:Group", custom: true, id: "o/x", provider: `${PLUGIN}::p1`, pendingReplacement: true },
      "::old waits to be deleted or replaced",
    ],
  ])("leaves to the engine a stack holding %s, saying why", (_, extra, why) => {
    expect(needsEngine(state(...base, extra))).toContain(why);
  });
});

describe("irv starts without the Automation API", () => {
  it("loads none of @pulumi/pulumi's runtime, automation or TypeScript until a command needs the engine", async () => {
    // What `irv drift` loads before it reads a stack: every command's module (cli/main.js), and the direct reads.
    const script = `require(${JSON.stringify(`${repoRoot}/dist/cli/main.js`)}); require(${JSON.stringify(`${repoRoot}/dist/cli/drift/direct.js`)});
console.log(JSON.stringify(Object.keys(require.cache).filter((k) => /@pulumi[\\/]pulumi[\\/](automation|runtime)|node_modules[\\/]typescript[\\/]/.test(k))));`;
    const run = await runNode(["-e", script]);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
