/**
 * What several IAM guardrails check (policy/rules.ts): values known at preview, roles dangerous to
 * hand out, claim matches that admit strangers, https issuers and invite lifetimes.
 */
import { RE2JS } from "re2js";
import { BUILTIN_ROLES } from "../api/capabilities";
import { DURATION } from "../api/kinds/groupInvites";
import { isKnown, type ConfigSchema, type RoleFacts } from "./world";

/** `v` when it is a string known at preview, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === "string" && isKnown(v) ? v : undefined);
/** `v` when it is an object (not a list) known at preview, else undefined. */
export const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === "object" && !Array.isArray(v) && isKnown(v) ? (v as Record<string, unknown>) : undefined;

/** The capabilities of a role that make it dangerous to hand out: any delete, or granting roles. */
export function dangerous(caps: readonly string[], patterns: readonly string[]): string[] {
  return caps.filter((c) => patterns.some((p) => (p.startsWith("*.") ? c.endsWith(p.slice(1)) : c === p)));
}

/** Why the role `role` is dangerous to hand out (owner, or the capabilities matching `patterns`), or undefined. */
export function dangerOf(role: RoleFacts | undefined, patterns: readonly string[]): string | undefined {
  if (!role) return undefined;
  if (role.name === "owner" && !role.declared) return "the built-in role owner";
  const caps = dangerous(role.capabilities ?? [], patterns);
  return caps.length ? `role ${role.name ?? "(unnamed)"}, which holds ${caps.join(", ")}` : undefined;
}

const VIEWER = new Set<string>(BUILTIN_ROLES.viewer.capabilities);

/** Read-only capabilities: nothing beyond what the built-in viewer holds (lists, reads and pulls). */
export function readOnly(caps: readonly string[]): boolean {
  return caps.every((c) => VIEWER.has(c));
}

/** Well-known CI issuers and a subject of theirs that belongs to nobody's organization. */
export const CI_ISSUERS: readonly { issuer: string; name: string; foreignSubjects: readonly string[] }[] = [
  {
    issuer: "https://token.actions.githubusercontent.com",
    name: "GitHub Actions",
    foreignSubjects: ["repo:irv-policy-probe/any-repo:ref:refs/heads/main", "repo:irv-policy-probe/any-repo:pull_request"],
  },
  { issuer: "https://gitlab.com", name: "GitLab CI", foreignSubjects: ["project_path:irv-policy-probe/any-project:ref_type:branch:ref:main"] },
  { issuer: "https://app.terraform.io", name: "HCP Terraform", foreignSubjects: ["organization:irv-policy-probe:project:any:workspace:any:run_phase:apply"] },
  {
    issuer: "https://oidc.circleci.com/org/00000000-0000-0000-0000-000000000000",
    name: "CircleCI",
    foreignSubjects: ["org/irv-policy-probe/project/any/user/any"],
  },
  {
    issuer: "https://agent.buildkite.com",
    name: "Buildkite",
    foreignSubjects: ["organization:irv-policy-probe:pipeline:any:ref:refs/heads/main:commit:0:step:any"],
  },
];

/** Whether the RE2 `pattern` matches all of `s` (as the platform matches patterns); false when it does not compile. */
export function fullMatch(pattern: string, s: string): boolean {
  try {
    return RE2JS.compile(`^(?:${pattern})$`).matcher(s).matches();
  } catch {
    return false;
  }
}

/** What is too broad about the claim match `cm`, one sentence each. */
export function broadness(cm: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ["issuerPattern", "subjectPattern"]) {
    const p = str(cm[key]);
    if (p === undefined) continue;
    if (!p.startsWith("^") || !p.endsWith("$")) out.push(`claimMatch.${key} ${JSON.stringify(p)} is not anchored (write it as ^...$)`);
    if (/^\^?(\(\?:)?\.[*+]/.test(p)) out.push(`claimMatch.${key} ${JSON.stringify(p)} starts with .*, so it matches any prefix`);
  }
  const sp = str(cm.subjectPattern);
  if (sp !== undefined) {
    const issuer = str(cm.issuer);
    const ip = str(cm.issuerPattern);
    for (const ci of CI_ISSUERS) {
      const trusts = issuer === ci.issuer || (ip !== undefined && fullMatch(ip, ci.issuer));
      if (trusts && ci.foreignSubjects.some((s) => fullMatch(sp, s)))
        out.push(
          `claimMatch.subjectPattern ${JSON.stringify(sp)} matches subjects of every ${ci.name} user (it matches ${JSON.stringify(ci.foreignSubjects.find((s) => fullMatch(sp, s)))})`,
        );
    }
  }
  return out;
}

/** Whether an issuer URL is https. */
export const https = (u: string) => /^https:\/\//i.test(u);
/** Whether an issuer pattern admits only https issuers (it starts with a literal `https://`). */
export const httpsPattern = (p: string) => /^\^?(\(\?:)?https:(\\?\/){2}/i.test(p);

/** The invite's lifetime in seconds (its required `ttl`), when known. */
export function lifetimeSeconds(inputs: Record<string, unknown>): number | undefined {
  const ttl = str(inputs.ttl);
  return ttl !== undefined && DURATION.test(ttl) ? parseFloat(ttl) : undefined;
}

/** The capability patterns that make a role an administrator's, by default. */
export const DANGEROUS_CAPABILITIES = ["*.delete", "role_bindings.create"];

export const dangerousConfig: ConfigSchema["properties"] = {
  capabilities: {
    type: "array",
    items: { type: "string" },
    description: "Capabilities that make a role dangerous to hand out; `*.delete` stands for every delete.",
    default: DANGEROUS_CAPABILITIES,
  },
};
