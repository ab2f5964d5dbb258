import { tokenSourceFrom, withLogin, type SourceOptions } from "./auth";
import { IrvClient } from "./client";
import { checkUrls, readSettings, requireApiUrl, settingsKey, type ConfigGetter, type Settings } from "./config";

/**
 * The process's clients, one per settings (and per anonymous or not), created on the first call
 * that needs the API: a preview that never calls the API needs no credentials, and a missing
 * setting fails with a message naming it only where a call is made. A client (and its cached
 * exchanged token) is reused while the settings stay the same. The provider and the SDK's data
 * sources share this one cache.
 */
const cache = new Map<string, IrvClient>();
/** Settings rarely change within a process; a few entries cover tests that switch between them. */
const CACHE_MAX = 8;

/** The cached client for `s`, created on first use. */
export function cachedClient(s: Settings, o: Pick<SourceOptions, "anonymous"> = {}): IrvClient {
  const key = `${o.anonymous ? "anonymous" : "credentials"}:${settingsKey(s)}`;
  let client = cache.get(key);
  if (!client) {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, (client = clientFor(s, { anonymous: o.anonymous })));
  }
  return client;
}

/**
 * Where one provider's settings come from (the engine's config, then the environment), and its
 * client for them. The resource plugin keeps one from its Configure call, the dynamic provider
 * host one for its process (provider/resources/host.ts), `irv drift` one for its own reads; each
 * hands it to the provider's methods in their context (provider/resources/context.ts).
 */
export class Session {
  readonly #get: ConfigGetter;
  /** The settings read once, when they cannot change (see the constructor). */
  readonly #fixed: Settings | undefined;
  /** The client for those, with credentials (a plugin's every call asks for it). */
  #fixedClient: IrvClient | undefined;

  /**
   * `once`: the settings cannot change while the session lives (the resource plugin's config
   * arrives in one Configure call and its environment is its own), so they are read now, not on
   * every call. A token must not go in the clear: an http URL to another host fails here.
   */
  constructor(get: ConfigGetter, o: { once?: boolean } = {}) {
    this.#get = get;
    this.#fixed = o.once ? readSettings(get) : undefined;
    checkUrls(this.#fixed ?? readSettings(get));
  }

  /** The client for the session's settings (`anonymous`: see cachedClient), created on first use. */
  client(o: Pick<SourceOptions, "anonymous"> = {}): IrvClient {
    if (!this.#fixed) return cachedClient(readSettings(this.#get), o);
    if (o.anonymous) return cachedClient(this.#fixed, o);
    return (this.#fixedClient ??= cachedClient(this.#fixed));
  }
}

/**
 * A new client for explicit settings (data sources, tests), with the `irv auth login` as the
 * last resort; `anonymous` lets it go without credentials (public registry reads).
 */
export function clientFor(s: Settings, o: Pick<SourceOptions, "anonymous" | "env"> = {}): IrvClient {
  const settings = withLogin(s, o.env);
  return new IrvClient(requireApiUrl(settings), tokenSourceFrom(settings, o));
}
