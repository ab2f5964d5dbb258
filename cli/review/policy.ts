import { existsSync } from "node:fs";
import * as path from "node:path";
import type { EngineEvent, LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { SETTINGS } from "../../client/config";
import { ruleById } from "../../policy/rules";
import type { Finding } from "../../policy/world";
import { displayNameOfType } from "../engine/steps";

/**
 * The folder of the policy pack this package ships (`policy/`, beside `dist/`), found from this
 * module whether it runs compiled (dist/cli/review) or as source (cli/review).
 */
export function policyPackDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "policy", "PulumiPolicy.yaml"))) return path.join(dir, "policy");
    if (path.dirname(dir) === dir) throw new Error(`the policy pack (policy/PulumiPolicy.yaml) is not in any folder above ${__dirname}`);
  }
}

/**
 * Runs `fn` with the stack's `irv:*` settings also in the engine's environment (`IRV_API_URL`,
 * `IRV_TOKEN`, ...), where the policy pack reads them to look up the roles and identities a
 * program names by uid: a pack sees the environment, not the stack's config.
 */
export async function withApiSettings<T>(stack: Stack, fn: () => Promise<T>, extra: Record<string, string> = {}): Promise<T> {
  const ws = stack.workspace as LocalWorkspace;
  if (!ws.envVars) return fn();
  const config = await stack.getAllConfig();
  const saved = { ...ws.envVars };
  Object.assign(ws.envVars, extra);
  for (const { key, env } of Object.values(SETTINGS)) {
    const value = config[key]?.value;
    if (value) ws.envVars[env] = value;
  }
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(ws.envVars)) delete ws.envVars[k];
    Object.assign(ws.envVars, saved);
  }
}

/** Collects the guardrails' findings from an engine operation's policy events. */
export class PolicyCollector {
  private readonly found: Finding[] = [];

  private readonly errors: string[] = [];

  readonly onEvent = (e: EngineEvent): void => {
    const d = e.diagnosticEvent;
    // What failed besides the policy: the engine's own "preview failed" follows a mandatory finding.
    if (d && d.severity === "error" && !/^\s*preview failed\s*$/.test(d.message)) this.errors.push(d.message.trim());
    const p = e.policyEvent;
    if (!p) return;
    const rule = ruleById(p.policyName);
    const urn = p.resourceUrn ?? "";
    const segments = urn.split("::");
    const type = (segments[2] ?? "").split("$").pop() ?? "";
    this.found.push({
      rule: p.policyName,
      enforcementLevel: p.enforcementLevel === "mandatory" ? "mandatory" : "advisory",
      urn,
      name: segments[3] ?? "",
      kind: type ? displayNameOfType(type) : "",
      message: messageOf(p.message, rule?.reason, rule?.fix),
      fix: rule?.fix ?? "",
    });
  };

  /** Whether a failed preview failed only because of a mandatory finding (nothing else went wrong). */
  failedByPolicy(): boolean {
    return this.errors.length === 0 && this.found.some((f) => f.enforcementLevel === "mandatory");
  }

  /** The findings, in the order the engine reported them. */
  findings(): Finding[] {
    return [...this.found];
  }
}

/** The finding's own sentence from an event's message: without the rule's reason and fix hint the pack adds. */
function messageOf(message: string, reason?: string, fix?: string): string {
  let m = message.trim();
  if (reason && m.startsWith(reason)) m = m.slice(reason.length).trim();
  if (fix && m.endsWith(`. Fix: ${fix}`)) m = m.slice(0, -`. Fix: ${fix}`.length);
  return m;
}
