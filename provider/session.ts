import { tokenSourceFrom, withLogin, type SourceOptions } from "./auth";
import { IrvClient } from "./client/client";
import { readSettings, requireApiUrl, settingsKey, type ConfigGetter, type Settings } from "./config";

/**
 * The provider's one client, created lazily from the configured settings on the first call that
 * needs the API: a preview that never calls the API needs no credentials, and a missing setting
 * fails with a message naming it only where a call is made. The client (and its cached exchanged
 * token) is reused while the settings stay the same.
 */
let getter: ConfigGetter = () => undefined;
let current: { key: string; client: IrvClient } | undefined;

/** Records where settings come from (the engine's config, then the environment). */
export function configure(get: ConfigGetter): void {
  getter = get;
}

/** The client for the configured settings, created on first use. */
export function currentClient(): IrvClient {
  const s = readSettings(getter);
  const key = settingsKey(s);
  if (current?.key !== key) current = { key, client: clientFor(s) };
  return current.client;
}

/**
 * A client for explicit settings (data sources, tests), with the `irv auth login` as the last
 * resort; `anonymous` lets it go without credentials (public registry reads).
 */
export function clientFor(s: Settings, o: Pick<SourceOptions, "anonymous" | "env"> = {}): IrvClient {
  const settings = withLogin(s, o.env);
  return new IrvClient(requireApiUrl(settings), tokenSourceFrom(settings, o));
}
