/**
 * The `irv auth login` store: the identity a user assumed, the identity token file it was assumed
 * with, and the tokens exchanged for it, one per audience. One JSON file, readable by its owner
 * only (mode 0600 in a 0700 directory), in `$IRV_CONFIG_DIR`, else `$XDG_CONFIG_HOME/irv`, else
 * `~/.config/irv`. Commands and the provider use it when no other credential is set.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { access, constants } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { ExchangeTokenSource, REFRESH_MARGIN_MS, expiryOf, type TokenSource } from "./sources";

/** What `irv auth login` keeps. */
export const Login = z.object({
  apiUrl: z.string(),
  authUrl: z.string(),
  identity: z.string(),
  /** Absolute path of the OIDC token file: read again at each exchange. */
  identityTokenFile: z.string(),
  /** Exchanged tokens by audience. */
  tokens: z.record(z.string(), z.string()),
});
export type Login = z.infer<typeof Login>;

/** The directory of the login store for `env`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.IRV_CONFIG_DIR) return env.IRV_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "irv");
}

/** The login file's path for `env`. */
export const loginFile = (env: NodeJS.ProcessEnv = process.env): string => join(configDir(env), "login.json");

/** The stored login, or undefined when logged out. A damaged file says how to fix it. */
export function readLogin(env: NodeJS.ProcessEnv = process.env): Login | undefined {
  const file = loginFile(env);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`the irv login ${file} cannot be read (${(e as NodeJS.ErrnoException).code}): run irv auth logout, then irv auth login`);
  }
  let parsed;
  try {
    parsed = Login.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) throw new Error(`the irv login ${file} is damaged: run irv auth logout, then irv auth login`);
  return parsed.data;
}

/** Stores `login`, readable by the user only; written whole (temp file + rename), never half. */
export function writeLogin(login: Login, env: NodeJS.ProcessEnv = process.env): void {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = loginFile(env);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** Forgets the login; true when there was one. */
export function removeLogin(env: NodeJS.ProcessEnv = process.env): boolean {
  const file = loginFile(env);
  const had = existsSync(file);
  rmSync(file, { force: true });
  return had;
}

/** What to run to log in again. */
const loginAgain = (l: Pick<Login, "identity">) => `log in again: irv auth login --identity ${l.identity} --identity-token <file holding a fresh OIDC token>`;

/**
 * A token for `audience` from the login: the stored one while more than a minute is left, else
 * a new exchange of the identity token file (stored for the next command).
 */
export async function loginToken(audience: string, env: NodeJS.ProcessEnv = process.env, now = Date.now()): Promise<string> {
  const login = readLogin(env);
  if (!login) throw new Error("not logged in: run irv auth login --identity <uid> --identity-token <file>");
  const stored = login.tokens[audience];
  if (stored && expiryOf(stored) - now > REFRESH_MARGIN_MS) return stored;
  try {
    await access(login.identityTokenFile, constants.R_OK);
  } catch (e) {
    throw new Error(
      `the login's token for ${audience} has expired and the identity token file ${login.identityTokenFile} can no longer be read ` +
        `(${(e as NodeJS.ErrnoException).code ?? "unreadable"}): ${loginAgain(login)}`,
    );
  }
  const source = new ExchangeTokenSource({ authUrl: login.authUrl, audience, identity: login.identity, identityToken: login.identityTokenFile });
  const token = await source.token();
  // Re-read: another command may have stored a token for another audience meanwhile.
  const latest = readLogin(env) ?? login;
  writeLogin({ ...latest, tokens: { ...latest.tokens, [audience]: token } }, env);
  return token;
}

/** The token source of a login, for `audience` (default: its API). Reads the store on each call. */
export class LoginTokenSource implements TokenSource {
  readonly describe = "irv auth login";
  #inflight: Promise<string> | undefined;

  constructor(
    readonly audience: string,
    private env: NodeJS.ProcessEnv = process.env,
  ) {}

  token(): Promise<string> {
    this.#inflight ??= loginToken(this.audience, this.env).finally(() => (this.#inflight = undefined));
    return this.#inflight;
  }

  invalidate(refused?: string): void {
    const login = readLogin(this.env);
    const stored = login?.tokens[this.audience];
    if (!login || stored === undefined || (refused !== undefined && stored !== refused)) return;
    const { [this.audience]: _dropped, ...rest } = login.tokens;
    writeLogin({ ...login, tokens: rest }, this.env);
  }
}
