import { ConfigurationError } from "../client/errors";
import { authUrlOf, requireApiUrl, type Settings } from "../config";
import { ExchangeTokenSource, StaticTokenSource, type TokenSource } from "./sources";

export * from "./sources";

/** What to set when no credentials are configured. */
export const NO_CREDENTIALS =
  "no credentials: set irv:token (IRV_TOKEN), or irv:identity (IRV_IDENTITY) and irv:identityToken (IRV_IDENTITY_TOKEN)";

/**
 * The token source the settings call for, in order: a static `token`; else an STS exchange of
 * `identityToken` for `identity`. Throws a ConfigurationError naming what is missing.
 */
export function tokenSourceFrom(s: Settings): TokenSource {
  if (s.token) return new StaticTokenSource(s.token);
  if (s.identity && s.identityToken)
    return new ExchangeTokenSource({
      authUrl: authUrlOf(s),
      audience: requireApiUrl(s),
      identity: s.identity,
      identityToken: s.identityToken,
    });
  if (s.identity) throw new ConfigurationError(`${NO_CREDENTIALS} (irv:identity is set but irv:identityToken is not)`);
  if (s.identityToken) throw new ConfigurationError(`${NO_CREDENTIALS} (irv:identityToken is set but irv:identity is not)`);
  throw new ConfigurationError(NO_CREDENTIALS);
}
