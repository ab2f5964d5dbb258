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
import { startServer, type RunningServer } from "../server";
import { createStack, type TestStack } from "../harness/engine";
import { PluginResource, usePluginFrom } from "../harness/plugin";
import { createBridgedStack, ensureBridge, fillTokenCache, loadBridgedSdk, type Bridge } from "./bridged";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** One mistake: the same resource on each side, with the wrong value. */
export interface Mistake {
  what: string;
  /** pulumi-irv's kind (providers' key) and the plugin's class. */
  kind: "roles" | "groups" | "identities";
  irvClass: "Role" | "Group" | "Identity";
  irv: (parent: string) => Record<string, unknown>;
  /** The bridged SDK's class and its arguments. */
  bridgedClass: "Role" | "Group" | "Identity";
  bridged: (parent: string) => Record<string, unknown>;
}

const claimMatch = { issuer: "ci.example.com", subject: "repo:acme/app:ref:refs/heads/main" };

export const MISTAKES: Mistake[] = [
  {
    what: "a capability that does not exist (`tag.frobnicate`) in a custom role",
    kind: "roles",
    irvClass: "Role",
    irv: (parent) => ({ groupUid: parent, name: "reader", capabilities: ["repo.list", "tag.frobnicate"] }),
    bridgedClass: "Role",
    bridged: (parent) => ({ parentId: parent, name: "reader", description: "", capabilities: ["repo.list", "tag.frobnicate"] }),
  },
  {
    what: "a group name the API refuses (`Team A!`)",
    kind: "groups",
    irvClass: "Group",
    irv: (parent) => ({ parentUid: parent, name: "Team A!" }),
    bridgedClass: "Group",
    bridged: (parent) => ({ parentId: parent, name: "Team A!", description: "" }),
  },
  {
    what: "an identity whose issuer is no https URL (`ci.example.com`)",
    kind: "identities",
    irvClass: "Identity",
    irv: (parent) => ({ groupUid: parent, name: "ci-bot", claimMatch }),
    bridgedClass: "Identity",
    bridged: (parent) => ({ parentId: parent, name: "ci-bot", description: "", claimMatch }),
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
      const irvParent = await group(server, `irv-${i}`);
      const irv = await createStack({ stackName: `irv-${i}`, program: async () => void new PluginResource(m.irvClass, "mistake", m.irv(irvParent)), server });
      await usePluginFrom(irv);
      const bridgedParent = await group(server, `bridged-${i}`);
      const bridged = await createBridgedStack(
        bridge,
        server,
        `bridged-${i}`,
        async () => void new sdk[m.bridgedClass]("mistake", m.bridged(bridgedParent)),
        cache,
      );
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
