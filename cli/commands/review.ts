import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { capabilityNamed } from "../../api/capabilities";
import { parsePolicyConfig } from "../../policy/config";
import { EXIT, STACK_OPTIONS, UsageError, oneOf, parsing, type Command } from "../command";
import { summaryOf } from "./list";
import { REVIEW_FORMATS, formatReview, runReview } from "../review";
import { openStack } from "../stack";

/** `irv review`: a preview grouped for a pull request reviewer. */
export const review: Command = {
  name: "review",
  summary: summaryOf("review"),
  help: `Usage: irv review [--stack S] [--cwd DIR] [--format markdown|json|text] [--refresh] [--detailed-exitcode]
                  [--no-policy | --policy-config FILE] [--gate CAPS@GROUP]... [--allow NAME]...

Previews the project's program against the stack (nothing is applied) and lists what would
change, grouped by create / update in place / replace / delete, with each field's before and
after value (secrets masked), each replacement with the fields that force it, and a one-line
summary such as "3 to create, 1 to update, 1 to replace (parentUid), 0 to delete". The IAM
guardrails (the policy pack in policy/, docs/policy.md) judge the planned change: each finding
is listed beside the change it concerns. The access change comes first: what each identity
gains and loses (the role's capabilities on the binding's group and every group below it),
computed from the stack's state and the proposed change.

Options:
  -s, --stack S          stack name (default: the project's selected stack)
      --cwd DIR          Pulumi project folder (default: the current directory)
  -f, --format F         markdown (default; ready to post as a PR comment), json or text
      --refresh          refresh from the live API first, so the diff is against reality
                         (with the current irv:* config, also when changed since the last up)
      --detailed-exitcode  exit 2 when there are changes, or (with --refresh) access made
                         outside the stack in its groups (default: 0 whether or not)
      --policy           apply the IAM guardrails (the default)
      --no-policy        do not apply them
      --policy-config FILE  their settings: a JSON file in Pulumi's --policy-pack-config format
      --gate CAPS@GROUP  fail (exit 3) when the change grants anyone one of CAPS (comma-separated,
                         *.delete for every delete) on GROUP's subtree (a uid or name); repeatable
      --allow NAME       let a binding, invite, identity provider or identity (logical name, URN
                         or uid), or a whole gate (irv-access-gate, irv-workload-iam-write) through
      --progress         print what it is doing on stderr, a line per step and per 100 resources
                         previewed (the default when stderr is a terminal; --no-progress: never)
  -h, --help             show this help

Exit codes: 0 success (with or without changes), 2 changes pending (only with
--detailed-exitcode), 3 a mandatory policy violation (wins over 2), 1 error.`,
  async run(argv, io) {
    const { values } = parsing("review", () =>
      parseArgs({
        args: argv,
        strict: true,
        options: {
          ...STACK_OPTIONS,
          refresh: { type: "boolean" },
          "detailed-exitcode": { type: "boolean" },
          policy: { type: "boolean" },
          "no-policy": { type: "boolean" },
          "policy-config": { type: "string" },
          gate: { type: "string", multiple: true },
          allow: { type: "string", multiple: true },
          progress: { type: "boolean" },
          "no-progress": { type: "boolean" },
        },
      }),
    );
    if (values.help) return (io.out(this.help), EXIT.ok);
    const format = oneOf("format", values.format, REVIEW_FORMATS, "markdown");
    if (values["no-policy"] && (values.policy || values["policy-config"])) throw new UsageError("--no-policy cannot go with --policy or --policy-config");
    const configFile = values["policy-config"] && path.resolve(values["policy-config"]);
    if (configFile) {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(configFile, "utf8"));
      } catch (e) {
        throw new UsageError(`--policy-config ${configFile}: ${(e as Error).message}`);
      }
      try {
        parsePolicyConfig(raw, `--policy-config ${configFile}`);
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    }
    if (values["no-policy"] && (values.gate || values.allow))
      throw new UsageError("--no-policy cannot go with --gate or --allow: the access change needs the policy pack");
    const gates = (values.gate ?? []).map(gateOption);
    const stack = await openStack({ stack: values.stack, cwd: values.cwd });
    // Long reviews (tens of seconds at a few hundred resources) say what they do, on a terminal or when asked.
    const progress = values["no-progress"] ? false : (values.progress ?? process.stderr.isTTY === true);
    const report = await runReview({
      stack,
      refresh: values.refresh,
      policy: values["no-policy"] ? false : { configFile },
      gates: { gates, allow: values.allow },
      onProgress: progress ? (line) => io.err(line) : undefined,
    });
    io.out(formatReview(report, format));
    if (report.policy?.mandatory) return EXIT.policy;
    return values["detailed-exitcode"] && (report.changes.length > 0 || !!report.outside?.unmanaged.length) ? EXIT.changes : EXIT.ok;
  },
};

/** `role_bindings.create,*.delete@engineering` as capabilities and a group. */
function gateOption(v: string): { capabilities: string[]; group: string } {
  const at = v.lastIndexOf("@");
  // The API's enum names (`CAP_IAM_ROLE_BINDINGS_CREATE`) are taken as the names they stand for.
  const capabilities = v
    .slice(0, Math.max(at, 0))
    .split(",")
    .filter(Boolean)
    .map((c) => capabilityNamed(c) ?? c);
  const group = v.slice(at + 1);
  if (at < 0 || !group || capabilities.length === 0) throw new UsageError(`--gate ${JSON.stringify(v)}: write CAPABILITY[,CAPABILITY...]@GROUP`);
  for (const c of capabilities)
    if (!c.startsWith("*.") && !capabilityNamed(c)) throw new UsageError(`--gate: ${JSON.stringify(c)} is not a capability the platform knows`);
  return { capabilities, group };
}
