import { createHash } from "node:crypto";
import { isLoopbackHost } from "../api/fields";
import { ConfigurationError } from "./errors";

/**
 * The provider's settings. Each comes from Pulumi config (`irv:<key>`) or, when unset, from its
 * environment variable. `authUrl` defaults to `${apiUrl}/auth`, where irv-server serves its token
 * issuer.
 */
export interface Settings {
  /** The API base URL (`irv:apiUrl` / `IRV_API_URL`). */
  apiUrl?: string;
  /** The token issuer's URL (`irv:authUrl` / `IRV_AUTH_URL`); default `${apiUrl}/auth`. */
  authUrl?: string;
  /** A static API token (`irv:token` / `IRV_TOKEN`). */
  token?: string;
  /** The identity uid to assume by exchange (`irv:identity` / `IRV_IDENTITY`). */
  identity?: string;
  /** An OIDC token or a path to a file holding one (`irv:identityToken` / `IRV_IDENTITY_TOKEN`). */
  identityToken?: string;
}

/** One setting: its config key, its environment variable, and whether its value is a secret (a credential). */
export interface SettingFacts {
  key: string;
  env: string;
  secret?: true;
}

/** Each setting with its config key and environment variable, and which are secret (the plugin's schema and `irv`'s masking read it). */
export const SETTINGS = {
  apiUrl: { key: "irv:apiUrl", env: "IRV_API_URL" },
  authUrl: { key: "irv:authUrl", env: "IRV_AUTH_URL" },
  token: { key: "irv:token", env: "IRV_TOKEN", secret: true },
  identity: { key: "irv:identity", env: "IRV_IDENTITY" },
  identityToken: { key: "irv:identityToken", env: "IRV_IDENTITY_TOKEN", secret: true },
} as const satisfies Record<keyof Settings, SettingFacts>;

/** The names of the settings whose values are secret: `token`, `identityToken`. */
export const SECRET_SETTINGS: readonly (keyof Settings)[] = Object.entries(SETTINGS).flatMap(([name, s]: [string, SettingFacts]) =>
  s.secret ? [name as keyof Settings] : [],
);

/** Reads a config value by full key (`irv:apiUrl`); Pulumi's `req.config.get` has this shape. */
export type ConfigGetter = (key: string) => string | undefined;

/** The settings from `get` (config), falling back to `env`. Empty strings count as unset. */
export function readSettings(get: ConfigGetter = () => undefined, env: NodeJS.ProcessEnv = process.env): Settings {
  const out: Settings = {};
  for (const [name, { key, env: variable }] of Object.entries(SETTINGS)) {
    const value = get(key) || env[variable];
    if (value) out[name as keyof Settings] = value;
  }
  return out;
}

/** The API URL, or a ConfigurationError naming the setting. */
export function requireApiUrl(s: Settings): string {
  if (!s.apiUrl) throw new ConfigurationError("no API URL: set irv:apiUrl (IRV_API_URL)");
  return secureUrl(s.apiUrl, "apiUrl").replace(/\/+$/, "");
}

/** The token issuer's URL: `authUrl`, else `${apiUrl}/auth`. */
export function authUrlOf(s: Settings): string {
  return s.authUrl ? secureUrl(s.authUrl, "authUrl").replace(/\/+$/, "") : `${requireApiUrl(s)}/auth`;
}

/**
 * `url`, when a bearer token may travel to it: https, or plain http only to a loopback host (a
 * local irv-server). Anything else is a ConfigurationError naming the setting: a token sent in
 * the clear can be read by anyone on the way.
 */
export function secureUrl(url: string, setting: "apiUrl" | "authUrl"): string {
  const { key, env } = SETTINGS[setting];
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ConfigurationError(`${key} (${env}) is not a URL`);
  }
  if (u.protocol === "https:" || (u.protocol === "http:" && isLoopbackHost(u.hostname))) return url;
  throw new ConfigurationError(
    `${key} (${env}) must be an https URL (plain http only to a loopback host such as 127.0.0.1): credentials must not travel in the clear to ${u.host}`,
  );
}

/** Checks the URLs among `s` (see secureUrl), so a provider fails at configure rather than at its first request. */
export function checkUrls(s: Settings): void {
  if (s.apiUrl) requireApiUrl(s);
  if (s.authUrl) authUrlOf(s);
}

/** The last settings digested (a provider asks for the same ones on every call). */
let lastKey: { json: string; key: string } | undefined;

/** A digest identifying a set of settings, so a cache can tell them apart without holding a credential. */
export function settingsKey(s: Settings): string {
  const json = JSON.stringify(s);
  if (lastKey?.json !== json) lastKey = { json, key: createHash("sha256").update(json).digest("hex") };
  return lastKey.key;
}
