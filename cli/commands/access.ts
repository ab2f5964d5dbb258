import { parseArgs } from "node:util";
import { ACCESS_FORMATS, formatAnswer } from "../access/format";
import type { AccessAnswer } from "../access/ask";
import { EXIT, HELP_OPTION, UsageError, oneOf, parsing, type Command } from "../command";
import { summaryOf } from "./list";
import { openStack, selectedStackConfig } from "../stack";

/** `irv access`: who can do what, where, on the live organization or in a stack's state. */
export const accessCommand: Command = {
  name: "access",
  summary: summaryOf("access"),
  help: `Usage: irv access can-i IDENTITY CAPABILITY GROUP [options]
       irv access who-can CAPABILITY GROUP [options]
       irv access what IDENTITY [options]

Answers from the organization's groups, roles, identities and role bindings (a binding grants
its role's capabilities on its group and every group below it; invites and identity providers
grant their role to whoever redeems or signs in):

  can-i     whether IDENTITY holds CAPABILITY on GROUP, and through which bindings
            (exit 0 yes, 4 no, 5 cannot tell)
  who-can   every identity holding CAPABILITY on GROUP, with the binding, role and group that
            grant it, direct or inherited
  what      every binding of IDENTITY: its role's capabilities on the binding's group subtree

IDENTITY and GROUP are uids or names (a stack resource's logical name too, with --stack);
CAPABILITY is a dotted name such as role_bindings.create. An identity matched by a pattern
stands for many subjects: its grants are marked "maybe". What the credentials may not list is
named under "Not seen", never guessed: then can-i answers "cannot tell" rather than no.

Options:
  -s, --stack S      answer from stack S's state instead of the live API (in --cwd)
      --cwd DIR      Pulumi project folder for --stack (default: the current directory)
      --live         answer from the live API even with --stack or --cwd (whose settings it uses)
  -f, --format F     table (default), json or markdown
  -h, --help         show this help

Live answers use the provider's settings, as \`irv drift\` and \`pulumi up\` do: the irv:* config
of the stack selected in the Pulumi project of the current directory (or --stack S, --cwd DIR,
with --live), else IRV_API_URL with IRV_TOKEN, IRV_IDENTITY and IRV_IDENTITY_TOKEN, else the
login of \`irv auth login\`. When a stack's config is used, stderr says which stack.

Exit codes: 0 success (can-i: yes), 4 can-i: no, 5 can-i: cannot tell, 1 error.`,
  async run(argv, io) {
    const { values, positionals } = parsing("access", () =>
      parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: {
          ...HELP_OPTION,
          stack: { type: "string", short: "s" },
          cwd: { type: "string" },
          format: { type: "string", short: "f" },
          live: { type: "boolean" },
        },
      }),
    );
    if (values.help) return (io.out(this.help), EXIT.ok);
    const format = oneOf("format", values.format, ACCESS_FORMATS, "table");
    const [question, ...args] = positionals;
    const arity = { "can-i": 3, "who-can": 2, what: 1 } as Record<string, number>;
    if (!question || !(question in arity)) throw new UsageError(`irv access needs a question: can-i, who-can or what\nRun \`irv access --help\` for usage.`);
    if (args.length !== arity[question])
      throw new UsageError(
        `irv access ${question} takes ${arity[question]} argument${arity[question] === 1 ? "" : "s"}, not ${args.length}\nRun \`irv access --help\` for usage.`,
      );
    const selection = { stack: values.stack, cwd: values.cwd };
    // Loaded here, not with every command (cli/bin.ts): the API client and the access model.
    const [{ readSettings }, { askApi, askState }] = await Promise.all([import("../../client"), import("../access/load")]);
    let asker;
    if ((values.stack || values.cwd) && !values.live) asker = await askState(await openStack(selection));
    else {
      // The settings of the project's stack, as the provider gets them, then the environment.
      const project = await selectedStackConfig(selection);
      if (project) io.err(`irv access: the live API, with the irv:* config of stack ${project.name}`);
      asker = await askApi(project ? readSettings((key) => project.config[key]?.value) : readSettings());
    }
    const answer: AccessAnswer =
      question === "can-i"
        ? await asker.canI(args[0], args[1], args[2])
        : question === "who-can"
          ? await asker.whoCan(args[0], args[1])
          : await asker.what(args[0]);
    io.out(formatAnswer(answer, format));
    if (answer.question !== "can-i") return EXIT.ok;
    return answer.answer === "yes" ? EXIT.ok : answer.answer === "no" ? EXIT.no : EXIT.unknown;
  },
};
