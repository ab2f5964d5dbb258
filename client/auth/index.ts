import { ConfigurationError, type ApiError } from "../errors";
import { authUrlOf, requireApiUrl, type Settings } from "../config";
import { LoginTokenSource, readLogin } from "./login";
import { ExchangeTokenSource, StaticTokenSource, type TokenSource } from "./sources";

export * from "./sources";
export * from "./login";

/** What to set when no credentials are configured. */
export const NO_CREDENTIALS =
  "no credentials: set irv:token (IRV_TOKEN), or irv:identity (IRV_IDENTITY) and irv:identityToken (IRV_IDENTITY_TOKEN), or run irv auth login";

/** Options of `tokenSourceFrom`. */
export interface SourceOptions {
  /** The audience to get tokens for: the API's (default) or the registry host's. */
  audience?: string;
  /** With no credentials at all, send no token (public registry reads) instead of failing. */
  anonymous?: boolean;
  /** Where the `irv auth login` store is looked up (default process.env). */
  env?: NodeJS.ProcessEnv;
}

const noCredentialsSet = (s: Settings) => !s.token && !s.identity && !s.identityToken;
const sameUrl = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

/**
 * The settings with the `irv auth login` filled in where nothing else is set: with no credential
 * and no API URL configured, the login's API (and token issuer) are used.
 */
export function withLogin(s: Settings, env: NodeJS.ProcessEnv = process.env): Settings {
  if (!noCredentialsSet(s) || s.apiUrl) return s;
  const login = readLogin(env);
  return login ? { ...s, apiUrl: login.apiUrl, authUrl: s.authUrl || login.authUrl } : s;
}

/**
 * The token source the settings call for, in order: a static `token`; else an STS exchange of
 * `identityToken` for `identity`; else the `irv auth login` for the same API; else, when
 * `anonymous` is allowed, no token. Throws a ConfigurationError naming what is missing.
 */
export function tokenSourceFrom(s: Settings, o: SourceOptions = {}): TokenSource {
  const apiUrl = requireApiUrl(s);
  const audience = o.audience ?? apiUrl;
  if (s.token) {
    if (!sameUrl(audience, apiUrl))
      throw new ConfigurationError(
        `irv:token (IRV_TOKEN) is an API token; a token for ${audience} needs irv:identity and irv:identityToken, or irv auth login`,
      );
    return new StaticTokenSource(s.token);
  }
  if (s.identity && s.identityToken) return new ExchangeTokenSource({ authUrl: authUrlOf(s), audience, identity: s.identity, identityToken: s.identityToken });
  if (s.identity) throw new ConfigurationError(`${NO_CREDENTIALS} (irv:identity is set but irv:identityToken is not)`);
  if (s.identityToken) throw new ConfigurationError(`${NO_CREDENTIALS} (irv:identityToken is set but irv:identity is not)`);
  const login = readLogin(o.env);
  if (login && sameUrl(login.apiUrl, apiUrl)) return new LoginTokenSource(sameUrl(audience, apiUrl) ? login.apiUrl : audience, o.env);
  if (o.anonymous) return new AnonymousTokenSource();
  const other = login ? ` (the irv auth login is for ${login.apiUrl}, not ${apiUrl})` : "";
  throw new ConfigurationError(NO_CREDENTIALS + other);
}

/**
 * No credentials, for public registry reads: requests go without a token. When the API refuses
 * one (a private repo), the error says which settings are missing.
 */
export class AnonymousTokenSource implements TokenSource {
  readonly describe = "no credentials (public registry reads only)";
  readonly anonymous = true;
  async token(): Promise<string> {
    return "";
  }
  refused(err: ApiError): Error {
    return new ConfigurationError(`${err.message}. Reading it needs credentials: ${NO_CREDENTIALS}`);
  }
}
