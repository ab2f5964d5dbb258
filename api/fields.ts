import { z } from "zod";
import { UID } from "./uid";
import { isCapability } from "./capabilities";

/**
 * Field rules shared by the server (which enforces them) and the provider's `check` (which
 * reports them at preview time, before any request is sent). Messages name what is wrong, not
 * where: the caller adds the field path.
 */

/** A group name: `^[a-z0-9 ._-]{1,}$`. */
export const GROUP_NAME = /^[a-z0-9 ._-]{1,}$/;

export const uid = z.string().regex(UID, "must be a uid: 40 hex characters, then /-separated 16-hex segments");
export const groupName = z.string().regex(GROUP_NAME, "must match ^[a-z0-9 ._-]{1,}$");
export const name = z.string().min(1, "must not be empty").max(256, "must be at most 256 characters");
export const description = z.string().max(4096, "must be at most 4096 characters");

/** True for localhost, 127.0.0.0/8 and ::1: the only hosts a test issuer may serve plain http from. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** An OIDC issuer URL: https, or http on a loopback host. */
export const issuerUrl = z.string().superRefine((s, ctx) => {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    ctx.addIssue({ code: "custom", message: "must be a URL" });
    return;
  }
  if (u.protocol === "https:") return;
  if (u.protocol === "http:" && isLoopbackHost(u.hostname)) return;
  ctx.addIssue({ code: "custom", message: "must be an https URL (plain http only on a loopback host)" });
});

/** A regular expression that compiles. */
export const pattern = z.string().min(1, "must not be empty").superRefine((s, ctx) => {
  try {
    new RegExp(s);
  } catch (e) {
    ctx.addIssue({ code: "custom", message: `is not a valid regular expression: ${(e as Error).message}` });
  }
});

export const capability = z.string().refine(isCapability, { message: "is not a known capability" });

/** An RFC 3339 UTC timestamp with milliseconds, as every `*Time` field is written. */
export const timestamp = z.iso.datetime({ precision: 3, message: "must be an RFC 3339 UTC timestamp with milliseconds" });

/** The service principals an identity can stand for. */
export const SERVICE_PRINCIPALS = [
  "CATALOG_SYNCER",
  "APKO_BUILDER",
  "INGESTER",
  "REGISTRY_PULLER",
  "REGISTRY_PUSHER",
  "COSIGNED",
] as const;

/** How far ahead a static-keys identity may expire. */
export const STATIC_KEYS_MAX_DAYS = 365;
