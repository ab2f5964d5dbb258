/**
 * What a user is told for the same three mistakes, on pulumi-irv's resource plugin and on the
 * platform's Terraform provider bridged into Pulumi (bench/bridged.ts), each through the real
 * engine against one irv-server: a custom role with a capability that does not exist, a group
 * whose name the API refuses, and an identity whose issuer is no https URL. Each mistake is a
 * program of one resource under a fresh group: `pulumi preview`, then `pulumi up` if the preview
 * passed. Prints, for docs/bridged.md, when each side caught it and its diagnostics as printed.
 *
 *   npm run bench -- mistakes
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { startServer, type RunningServer } from "../server";
import { createStack, type TestStack } from "../harness/engine";
import { PluginResource, usePluginFrom } from "../harness/plugin";
import { createBridgedStack, ensureBridge, fillTokenCache, loadBridgedSdk, type Bridge } from "./bridged";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

interface Mistake {
  what: string;
  irv: (parent: string) => PulumiFn;
  bridged: (sdk: ReturnType<typeof loadBridgedSdk>, parent: string) => PulumiFn;
}

export const MISTAKES: Mistake[] = [
  {
    what: "a capability that does not exist (`tag.frobnicate`) in a custom role",
    irv: (parent) => async () => void new PluginResource("Role", "reader", { groupUid: parent, name: "reader", capabilities: ["repo.list", "tag.frobnicate"] }),
    bridged: (sdk, parent) => async () => void new sdk.Role("reader", { parentId: parent, name: "reader", description: "", capabilities: ["repo.list", "tag.frobnicate"] }),
  },
  {
    what: "a group name the API refuses (`Team A!`)",
    irv: (parent) => async () => void new PluginResource("Group", "team", { parentUid: parent, name: "Team A!" }),
    bridged: (sdk, parent) => async () => void new sdk.Group("team", { parentId: parent, name: "Team A!", description: "" }),
  },
  {
    what: "an identity whose issuer is no https URL (`ci.example.com`)",
    irv: (parent) => async () =>
      void new PluginResource("Identity", "ci", { groupUid: parent, name: "ci", claimMatch: { issuer: "ci.example.com", subject: "repo:acme/app:ref:refs/heads/main" } }),
    bridged: (sdk, parent) => async () =>
      void new sdk.Identity("ci", { parentId: parent, name: "ci", description: "", claimMatch: { issuer: "ci.example.com", subject: "repo:acme/app:ref:refs/heads/main" } }),
  },
];

/** The diagnostics of a failed operation, as printed, without the run's temp paths. */
function diagnosticsOf(e: unknown): string {
  const text = String((e as Error).message ?? e);
  const from = text.indexOf("Diagnostics:");
  const lines = (from >= 0 ? text.slice(from + "Diagnostics:".length) : text).split("\n");
  const end = lines.findIndex((l) => /^(Resources|Outputs|Duration):/.test(l.trim()) || l.startsWith("stderr:"));
  return (end >= 0 ? lines.slice(0, end) : lines)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ")
    .replace(/\/tmp\/[\w./-]+/g, "<tmp>");
}

interface Outcome {
  caught: "preview" | "up" | "never";
  said: string;
}

async function attempt(t: TestStack): Promise<Outcome> {
  try {
    await t.stack.preview();
  } catch (e) {
    return { caught: "preview", said: diagnosticsOf(e) };
  }
  try {
    await t.stack.up();
  } catch (e) {
    return { caught: "up", said: diagnosticsOf(e) };
  }
  await t.stack.destroy();
  return { caught: "never", said: "" };
}

async function group(server: RunningServer, name: string): Promise<string> {
  const res = await fetch(`${server.url}/iam/v2beta1/groups/${server.organization}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  if (!res.ok) throw new Error(`POST group: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { uid: string }).uid;
}

export async function runMistakes(bridge: Bridge = ensureBridge()): Promise<string> {
  const server = await startServer();
  const sdk = loadBridgedSdk(bridge);
  const cache = mkdtempSync(path.join(tmpdir(), "irv-mistakes-cache-"));
  fillTokenCache(cache, server.url, server.token);
  const rows: string[] = [];
  try {
    for (const [i, m] of MISTAKES.entries()) {
      const irv = await createStack({ stackName: `irv-${i}`, program: m.irv(await group(server, `irv-${i}`)), server });
      await usePluginFrom(irv);
      const bridged = await createBridgedStack(bridge, server, `bridged-${i}`, m.bridged(sdk, await group(server, `bridged-${i}`)), cache);
      try {
        const [a, b] = [await attempt(irv), await attempt(bridged)];
        const cell = (o: Outcome) => (o.caught === "never" ? "not caught: created" : `at ${o.caught}: ${o.said.replace(/\|/g, "\\|")}`);
        rows.push(`| ${m.what} | ${cell(a)} | ${cell(b)} |`);
      } finally {
        await irv.dispose();
        await bridged.dispose();
      }
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
    await server.close();
  }
  return ["| mistake | pulumi-irv (plugin) | bridged provider |", "|---|---|---|", ...rows].join("\n");
}

if (require.main === module) {
  runMistakes().then(
    (text) => console.log(text),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
