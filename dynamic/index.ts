/**
 * pulumi-irv: manage an organization on the Identity, Registry and Vulnerability Platform.
 *
 *   import * as irv from "pulumi-irv";
 *   const eng = new irv.iam.Group("eng", { parentUid: org, name: "engineering" });
 *
 * Settings, each from stack config or else its environment variable: irv:apiUrl (IRV_API_URL),
 * irv:authUrl (IRV_AUTH_URL, default `${apiUrl}/auth`), and credentials: irv:token (IRV_TOKEN),
 * or irv:identity (IRV_IDENTITY) with irv:identityToken (IRV_IDENTITY_TOKEN: an OIDC token or
 * the path of a file holding one), exchanged for an API token and refreshed before it expires.
 * Set irv:token and irv:identityToken with `--secret`.
 */
export * as iam from "./iam";
export * as registry from "./registry";
export * as events from "./events";
export * as vulnerabilities from "./vulnerabilities";
export type { DeepInput, CommonArgs } from "./resource";
export type { ListArgs } from "./functions";
