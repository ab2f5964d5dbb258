import { parseArgs } from "node:util";
import type { Kind } from "../../api/kinds";
import { EXIT, STACK_OPTIONS, UsageError, oneOf, parsing, type Command } from "../command";
import { summaryOf } from "./list";
import { WATCHED_KINDS } from "../drift/watched";
import { DRIFT_FORMATS } from "../drift/format";
import { openStack, readStack } from "../stack";

/** `irv drift`: compare a stack with the live API; exit 2 on drift. */
export const drift: Command = {
  name: "drift",
  summary: summaryOf("drift"),
  help: `Usage: irv drift [--stack S] [--cwd DIR] [--format text|markdown|json] [--expect UID|NAME]...
                 [--watch KINDS] [--no-access] [--engine]
       irv drift --follow [--listen HOST:PORT] [--group UID] [--issuer URL] [options above]

Reads every resource of the stack from the live API (its state is not changed) and reports, per
resource, each field whose live value differs from the recorded one, and resources deleted
outside Pulumi. Secrets show as [secret]. It also lists what grants access inside the groups the
stack manages but is not in the stack (role bindings, identities, custom roles, invites and
identity providers made by hand), each with the access it grants: drift too.

Options:
  -s, --stack S      stack name (default: the project's selected stack)
      --cwd DIR      Pulumi project folder (default: the current directory)
  -f, --format F     text (default), markdown (ready to post as an issue or PR comment), json
      --expect X     an item made outside the stack on purpose (uid or name); repeatable, beside
                     the stack config irv-drift:expectedAccess (a JSON array or comma-separated)
      --watch KINDS  the kinds to look for, comma-separated (default: roleBindings, identities,
                     roles, groupInvites, identityProviders)
      --no-access    do not look for access made outside the stack
      --engine       read through the engine's refresh (pulumi refresh --preview-only) even
                     where irv can read the resources itself
  -h, --help         show this help

Following (a long-running receiver of the platform's signed events; docs/drift-follow.md):
      --follow          run a full drift, then receive the events of the stack's subscription,
                        re-read only what each changed and report it; JSON: one report a line
      --listen H:P      the address to listen on (default 127.0.0.1:8080; :8080 for all)
      --path P          the path deliveries are POSTed to (default /); GET /healthz answers
      --group UID       the group whose subscription delivers here (default: the parent of the
                        stack's one events.Subscription)
      --issuer URL      the issuer signing deliveries (default: the stack's irv:authUrl)
      --tls-cert FILE   serve https with this certificate (PEM) and --tls-key FILE
      --max-body N      refuse bodies over N bytes with 413 (default 1048576)
      --exec CMD        run CMD (a shell command) per finding, the finding as JSON on its stdin
      --webhook URL     POST each finding as JSON to URL
      --repeat-window S send a finding seen again within S seconds (default 3600) only in the
                        digest of repeats sent when the window closes
      --gap-every S     the least time between two full drifts after gaps (default 60)
      --resync-every S  run a full drift when none ran for S seconds (default 900; 0: never), to
                        catch a change whose delivery was lost (irv-server restarted, ...)

irv reads the resources itself, through the same providers and in pages of each kind, when every
resource of the stack is an irv resource on a default provider; otherwise the engine's refresh
reads them (which other providers' resources and explicit providers need). The endpoint and
credentials come from the stack's irv:* config, or from IRV_API_URL, IRV_AUTH_URL, IRV_TOKEN,
IRV_IDENTITY, IRV_IDENTITY_TOKEN, as they are now: when they changed since the last
\`pulumi up\`, drift says so, and the engine's refresh runs the program too (as
\`pulumi refresh --run-program\`).

Exit codes: 0 in sync, 2 drift found, 1 error.`,
  async run(argv, io) {
    const { values } = parsing("drift", () =>
      parseArgs({
        args: argv,
        strict: true,
        options: {
          ...STACK_OPTIONS,
          expect: { type: "string", multiple: true },
          watch: { type: "string" },
          "no-access": { type: "boolean" },
          engine: { type: "boolean" },
          follow: { type: "boolean" },
          listen: { type: "string" },
          path: { type: "string" },
          group: { type: "string" },
          issuer: { type: "string" },
          "tls-cert": { type: "string" },
          "tls-key": { type: "string" },
          "max-body": { type: "string" },
          exec: { type: "string" },
          webhook: { type: "string" },
          "repeat-window": { type: "string" },
          "gap-every": { type: "string" },
          "resync-every": { type: "string" },
        },
      }),
    );
    if (values.help) return (io.out(this.help), EXIT.ok);
    const format = oneOf("format", values.format, DRIFT_FORMATS, "text");
    const selection = { stack: values.stack, cwd: values.cwd };
    const kinds = values.watch?.split(",").map((k) => k.trim()) as Kind[] | undefined;
    for (const k of kinds ?? [])
      if (!WATCHED_KINDS.includes(k)) throw new UsageError(`--watch: ${JSON.stringify(k)} is not one of ${WATCHED_KINDS.join(", ")}`);
    const followOnly = [
      "listen",
      "path",
      "group",
      "issuer",
      "tls-cert",
      "tls-key",
      "max-body",
      "exec",
      "webhook",
      "repeat-window",
      "gap-every",
      "resync-every",
    ] as const;
    if (!values.follow) for (const k of followOnly) if (values[k] !== undefined) throw new UsageError(`--${k} goes with --follow`);
    if (values.follow) {
      if (values.engine) throw new UsageError("--engine does not go with --follow");
      const { runFollow } = await import("../follow/run");
      return runFollow(
        {
          selection,
          format,
          access: values["no-access"] ? false : { expected: values.expect, kinds },
          listen: values.listen,
          path: values.path,
          group: values.group,
          issuer: values.issuer,
          maxBody: values["max-body"],
          tlsCert: values["tls-cert"],
          tlsKey: values["tls-key"],
          exec: values.exec,
          webhook: values.webhook,
          repeatWindow: values["repeat-window"],
          gapEvery: values["gap-every"],
          resyncEvery: values["resync-every"],
        },
        io,
      );
    }
    // The stack's files are read without the Automation API (it is opened only if the engine must
    // refresh). The modules comparing them with the API load once that read is under way, so the
    // passphrase's key derivation (a thread of its own) or the pulumi CLI runs go on meanwhile.
    const reading = readStack(selection);
    const loading = new Promise((next) => setImmediate(next)).then(() => import("../drift"));
    const [contents, { runDrift, formatDrift }] = await Promise.all([reading, loading]);
    const report = await runDrift({
      stack: () => openStack(selection),
      contents,
      engine: values.engine,
      access: values["no-access"] ? false : { expected: values.expect, kinds },
    });
    io.out(formatDrift(report, format));
    return report.inSync ? EXIT.ok : EXIT.changes;
  },
};
