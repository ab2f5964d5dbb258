import { randomBytes } from "node:crypto";

/** A root uid: 40 lowercase hex characters. Roles built into the platform have uids of this form. */
export const ROOT_UID = /^[0-9a-f]{40}$/;

/** Any uid: a root uid followed by zero or more `/`-separated 16-hex segments. */
export const UID = /^[0-9a-f]{40}(\/[0-9a-f]{16})*$/;

/** True when `s` is a well-formed uid. */
export function isUid(s: string): boolean {
  return UID.test(s);
}

/** The uid of the parent of `uid`, or undefined for a root uid. */
export function parentOf(uid: string): string | undefined {
  const i = uid.lastIndexOf("/");
  return i < 0 ? undefined : uid.slice(0, i);
}

/** True when `ancestor` is a strict ancestor of `uid`: a prefix of it followed by `/`. */
export function isAncestor(ancestor: string, uid: string): boolean {
  return uid.length > ancestor.length && uid.startsWith(ancestor) && uid[ancestor.length] === "/";
}

/** True when `ancestor` is `uid` itself or one of its ancestors. */
export function isSelfOrAncestor(ancestor: string, uid: string): boolean {
  return ancestor === uid || isAncestor(ancestor, uid);
}

/** A fresh random root uid (20 random bytes). */
export function newRootUid(): string {
  return randomBytes(20).toString("hex");
}

/** A fresh random child uid under `parent` (8 random bytes). */
export function newChildUid(parent: string): string {
  return `${parent}/${randomBytes(8).toString("hex")}`;
}
