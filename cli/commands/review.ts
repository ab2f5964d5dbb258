import { parseArgs } from "node:util";
import { EXIT, STACK_OPTIONS, oneOf, parsing, type Command } from "../command";
import { REVIEW_FORMATS, formatReview, runReview } from "../review";
import { openStack } from "../stack";

/** `irv review`: a preview grouped for a pull request reviewer. */
export const review: Command = {
  name: "review",
  summary: "preview a change grouped by create / update / replace / delete, with field diffs",
  help: `Usage: irv review [--stack S] [--cwd DIR] [--format markdown|json] [--refresh] [--detailed-exitcode]

Previews the project's program against the stack (nothing is applied) and lists what would
change, grouped by create / update in place / replace / delete, with each field's before and
after value (secrets masked), each replacement with the fields that force it, and a one-line
summary such as "3 to create, 1 to update, 1 to replace (parentUid), 0 to delete".

Options:
  -s, --stack S          stack name (default: the project's selected stack)
      --cwd DIR          Pulumi project folder (default: the current directory)
  -f, --format F         markdown (default; ready to post as a PR comment) or json
      --refresh          refresh from the live API first, so the diff is against reality
                         (with the current irv:* config, also when changed since the last up)
      --detailed-exitcode  exit 2 when there are changes (default: 0 whether or not)
  -h, --help             show this help

Exit codes: 0 success (with or without changes), 2 changes pending (only with
--detailed-exitcode), 1 error.`,
  async run(argv, io) {
    const { values } = parsing("review", () =>
      parseArgs({
        args: argv,
        strict: true,
        options: {
          ...STACK_OPTIONS,
          refresh: { type: "boolean" },
          "detailed-exitcode": { type: "boolean" },
        },
      }),
    );
    if (values.help) return io.out(this.help), EXIT.ok;
    const format = oneOf("format", values.format, REVIEW_FORMATS, "markdown");
    const stack = await openStack({ stack: values.stack, cwd: values.cwd });
    const report = await runReview({ stack, refresh: values.refresh });
    io.out(formatReview(report, format));
    return values["detailed-exitcode"] && report.changes.length > 0 ? EXIT.changes : EXIT.ok;
  },
};
