/**
 * The two audiences this server issues tokens for (spec, Authentication 3 and 6): the API's own
 * (`{base_url}`, the server's url) and the container registry's (`{registry_host}`, from the
 * `registryHost` option, by default the server's own host:port). The API accepts only API tokens
 * and the registry host only registry tokens.
 */
import type { IssuerUrls } from "./tokens";
import { invalidField } from "../errors";

const trimSlashes = (s: string) => s.replace(/\/+$/, "");

/** A registry host as tokens carry it: no scheme, no path (`cgr.example.dev`, `127.0.0.1:5000`). */
export function registryAudience(host: string): string {
  return trimSlashes(host.replace(/^https?:\/\//i, ""));
}

/**
 * The audience an external token must carry for an identity whose claimMatch names none: the host
 * of this server's issuer (`authUrl`), as the platform's default is its issuer's host name
 * (`issuer.enforce.dev`). A local server's host has its port (`127.0.0.1:41305`).
 */
export function defaultAudience(urls: Pick<IssuerUrls, "authUrl">): string {
  return new URL(urls.authUrl).host;
}

/**
 * The audiences accepted from a staticKeys identity that names none (the platform's "global
 * allowed audiences"): the default audience above, and this API's URL.
 */
export function allowedAudiences(urls: Pick<IssuerUrls, "authUrl" | "url">): string[] {
  return [defaultAudience(urls), urls.url];
}

/** The audience an exchange's `aud` asks for, in the issued token's form; INVALID_ARGUMENT otherwise. */
export function requestedAudience(urls: IssuerUrls, aud: unknown): string {
  const choices = `this API's audience, ${urls.url}, or the registry host, ${urls.registryHost}`;
  if (Array.isArray(aud) && new Set(aud).size > 1) throw invalidField("aud", `takes one audience per exchange: ${choices}`);
  if (Array.isArray(aud)) aud = aud[0];
  if (typeof aud !== "string" || aud === "") throw invalidField("aud", `is required: ${choices}`);
  if (trimSlashes(aud) === trimSlashes(urls.url)) return urls.url;
  if (registryAudience(aud) === urls.registryHost) return urls.registryHost;
  throw invalidField("aud", `must be ${choices}`);
}

/** Checks a configured registry host (`host` or `host:port`); returns it in token form. */
export function checkRegistryHost(host: string): string {
  const form = registryAudience(host);
  let parsed: URL | undefined;
  try {
    parsed = new URL(`https://${form}`);
  } catch {
    parsed = undefined;
  }
  if (!form || parsed?.host !== form.toLowerCase())
    throw new Error(`registryHost ${JSON.stringify(host)} must be a host name with an optional port, e.g. registry.example.dev`);
  return form.toLowerCase();
}
