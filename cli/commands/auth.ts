import { access, constants } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { isLoopbackHost } from "../../api/fields";
import { ExchangeTokenSource, expiryOf, loginFile, loginToken, readLogin, removeLogin, writeLogin } from "../../client/auth";
import { EXIT, HELP_OPTION, parsing, UsageError, type Command, type Io } from "../command";
import { summaryOf } from "./list";

const HELP = `Usage: irv auth login --identity UID --identity-token FILE [--api-url URL] [--auth-url URL]
       irv auth token [--audience AUD]
       irv auth logout

Log in as an identity from the command line (the platform's \`login\` and \`token\` commands).

  login    assumes the identity by exchanging the OIDC token in FILE at the token issuer, and
           keeps the result in the login file (readable by you only). The file is read again
           whenever a fresh token is needed, so point it at a token that CI or your tooling
           keeps current.
  token    prints a token for scripts and CI, e.g.
             curl -H "Authorization: Bearer $(irv auth token)" "$IRV_API_URL/iam/v2beta1/groups"
           The stored token is printed while more than a minute is left; otherwise the identity
           token file is exchanged again.
  logout   forgets the login.

Options:
      --identity UID        the identity to assume (login; required)
      --identity-token FILE a file holding an OIDC token that may assume it (login; required)
      --api-url URL         the API base URL (login; default IRV_API_URL)
      --auth-url URL        the token issuer (login; default IRV_AUTH_URL, else <api url>/auth)
      --audience AUD        token: the API's URL (default) or the registry host, for a token
                            that the registry accepts
  -h, --help                show this help

The login file is $IRV_CONFIG_DIR/login.json, else $XDG_CONFIG_HOME/irv/login.json, else
~/.config/irv/login.json (mode 0600, folder 0700). With no irv:token, irv:identity or
irv:identityToken set (nor IRV_TOKEN, IRV_IDENTITY, IRV_IDENTITY_TOKEN), the provider, the
registry data sources and irv drift, review and export use the login, and its API URL when
irv:apiUrl is unset too. Tokens are printed by \`irv auth token\` only, never logged.

Exit codes: 0 success, 1 error.`;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** `irv auth`: log in as an identity, print tokens, log out. */
export const authCommand: Command = {
  name: "auth",
  summary: summaryOf("auth"),
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parsing("auth", () =>
      parseArgs({
        args: argv,
        strict: true,
        allowPositionals: true,
        options: {
          ...HELP_OPTION,
          identity: { type: "string" },
          "identity-token": { type: "string" },
          "api-url": { type: "string" },
          "auth-url": { type: "string" },
          audience: { type: "string" },
        },
      }),
    );
    if (values.help) return (io.out(HELP), EXIT.ok);
    const [sub, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"\nRun \`irv auth --help\` for usage.`);
    const only = (allowed: string[]) => {
      for (const k of Object.keys(values))
        if (k !== "help" && !allowed.includes(k)) throw new UsageError(`--${k} is not an option of irv auth ${sub}\nRun \`irv auth --help\` for usage.`);
    };
    switch (sub) {
      case "login":
        only(["identity", "identity-token", "api-url", "auth-url"]);
        return login(values, io);
      case "token":
        only(["audience"]);
        io.out(await loginToken(await audienceOf(values.audience)));
        return EXIT.ok;
      case "logout":
        only([]);
        io.out(removeLogin() ? `Logged out: removed ${loginFile()}` : "Not logged in.");
        return EXIT.ok;
      default:
        throw new UsageError(
          `${sub === undefined ? "a subcommand is required" : `unknown subcommand "${sub}"`}: login, token or logout\nRun \`irv auth --help\` for usage.`,
        );
    }
  },
};

/** The audience for `token`: the login's API unless `--audience` names another. */
async function audienceOf(audience: string | undefined): Promise<string> {
  const stored = readLogin();
  if (!stored) throw new UsageError("not logged in: run irv auth login --identity <uid> --identity-token <file>");
  if (audience === undefined || audience.replace(/\/+$/, "") === stored.apiUrl) return stored.apiUrl;
  if (audience.trim() === "") throw new UsageError("--audience must not be empty: give the API's URL or the registry host");
  return audience;
}

/** The options `irv auth login` takes, as parseArgs reads them. */
type LoginOptions = { identity?: string; "identity-token"?: string; "api-url"?: string; "auth-url"?: string };

async function login(values: LoginOptions, io: Io): Promise<number> {
  const identity = values.identity;
  const tokenFile = values["identity-token"];
  if (!identity) throw new UsageError("--identity <uid> is required\nRun `irv auth --help` for usage.");
  if (!tokenFile) throw new UsageError("--identity-token <file> is required\nRun `irv auth --help` for usage.");
  if (JWT_SHAPE.test(tokenFile.trim()))
    throw new UsageError(
      "--identity-token takes the path of a file holding the token, not the token itself (a token on the command line shows in ps and in shell history)",
    );
  const apiUrlRaw = values["api-url"] || process.env.IRV_API_URL;
  if (!apiUrlRaw) throw new UsageError("no API URL: give --api-url or set IRV_API_URL");
  const apiUrl = checkUrl("--api-url", apiUrlRaw);
  const authUrl = checkUrl("--auth-url", values["auth-url"] || process.env.IRV_AUTH_URL || `${apiUrl}/auth`);
  const identityTokenFile = path.resolve(tokenFile);
  try {
    await access(identityTokenFile, constants.R_OK);
  } catch (e) {
    throw new UsageError(`--identity-token ${identityTokenFile} cannot be read (${(e as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
  const token = await new ExchangeTokenSource({ authUrl, audience: apiUrl, identity, identityToken: identityTokenFile }).token();
  writeLogin({ apiUrl, authUrl, identity, identityTokenFile, tokens: { [apiUrl]: token } });
  io.out(`Logged in to ${apiUrl} as identity ${identity}; the token is valid until ${new Date(expiryOf(token)).toISOString()}.`);
  io.out(`Saved in ${loginFile()} (readable by you only). Print a token with: irv auth token`);
  return EXIT.ok;
}

function checkUrl(option: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`${option} must be an http(s) URL, not "${value}"`);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") throw new UsageError(`${option} must be an http(s) URL, not "${value}"`);
  if (u.protocol === "http:" && !isLoopbackHost(u.hostname))
    throw new UsageError(
      `${option} must be an https URL (plain http only to a loopback host such as 127.0.0.1): credentials must not travel in the clear to ${u.host}`,
    );
  return value.replace(/\/+$/, "");
}
