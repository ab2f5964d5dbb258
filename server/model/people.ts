/**
 * People: user identities, as the platform has them. A person is who signed in, through the
 * platform's own issuer (the platform's is `https://auth.chainguard.dev/`, with subjects such as
 * `github|<id>`; offline, this server's issuer, `authUrl`) or through an organization's identity
 * provider. A person belongs to no group: their uid is a root uid derived from the issuer and
 * subject, so a lookup names it before their first sign-in, as the platform's `LookupIdentity`
 * does, and role bindings on any group may name them.
 *
 * People come from the fixtures file (`people`) or from a sign-in: an exchange that names no
 * identity (sts.ts).
 */
import { createHash } from "node:crypto";
import { parentOf } from "../../api/uid";
import { timestamp, type ServerContext } from "../context";
import { failedPrecondition } from "../errors";
import type { IdentityRecord, PersonOf } from "../store";
import { bindingRecord } from "./roleBindings";
import { freshUid } from "./common";

/** `issuer` as a person's record keeps it: absent for this server's own issuer (with or without a trailing slash). */
export function personIssuer(ctx: Pick<ServerContext, "urls">, issuer: string): string | undefined {
  const trim = (s: string) => s.replace(/\/+$/, "");
  return trim(issuer) === trim(ctx.urls.authUrl) ? undefined : issuer;
}

/** The uid of the person who signs in with `issuer` (as personIssuer keeps it) and `subject`: the same on every start. */
export function personUid(issuer: string | undefined, subject: string): string {
  return createHash("sha1")
    .update(`person\u0000${issuer ?? ""}\u0000${subject}`)
    .digest("hex");
}

/** True for a person's record (a user identity). */
export function isPerson(i: IdentityRecord | undefined): i is IdentityRecord & { person: PersonOf } {
  return i?.person !== undefined;
}

/** The person who signs in with `issuer` and `subject`, if they ever did. */
export function findPerson(ctx: ServerContext, issuer: string, subject: string): (IdentityRecord & { person: PersonOf }) | undefined {
  const key = personIssuer(ctx, issuer);
  const p = ctx.store.identities.get(personUid(key, subject));
  return isPerson(p) && p.person.issuer === key && p.person.subject === subject ? p : undefined;
}

/** What a sign-in (or a fixture) says about a person. */
export interface SignIn {
  issuer: string;
  subject: string;
  /** The organization's identity provider signed in through. */
  identityProvider?: string;
  name?: string;
  email?: string;
  /** Whether the issuer vouched for `email` (`email_verified`); default true. */
  emailVerified?: boolean;
  company?: string;
  /** When, RFC 3339; default now. */
  at?: string;
}

/** A new person's record: `issuer` as personIssuer keeps it, first seen `now`. */
export function personRecord(issuer: string | undefined, s: Omit<SignIn, "issuer">, now: string): IdentityRecord {
  const verified = s.emailVerified ?? true;
  return {
    uid: personUid(issuer, s.subject),
    name: s.name ?? s.email ?? s.subject,
    description: "",
    company: s.company ?? "",
    email: verified ? (s.email ?? "") : "",
    emailUnverified: verified ? "" : (s.email ?? ""),
    lastSeenTime: now,
    createTime: now,
    updateTime: now,
    person: { ...(issuer === undefined ? {} : { issuer }), subject: s.subject, ...(s.identityProvider ? { identityProvider: s.identityProvider } : {}) },
  };
}

/**
 * Records a person's sign-in: registers them the first time (and, through an identity provider,
 * binds its default role on its group, as the platform does), and sets `lastSeenTime` every time,
 * with the email their sign-in reported. Call inside a store transaction.
 */
export function signIn(ctx: ServerContext, s: SignIn): IdentityRecord {
  const issuer = personIssuer(ctx, s.issuer);
  const uid = personUid(issuer, s.subject);
  const now = s.at ?? timestamp(ctx);
  const old = ctx.store.identities.get(uid);
  const verified = s.emailVerified ?? true;
  const email = s.email === undefined ? undefined : { email: verified ? s.email : (old?.email ?? ""), emailUnverified: verified ? "" : s.email };
  if (old) {
    const next = { ...old, ...email, lastSeenTime: now };
    ctx.store.identities.replace(next);
    return next;
  }
  const r = personRecord(issuer, s, now);
  ctx.store.identities.insert(r);
  const idp = s.identityProvider ? ctx.store.identityProviders.get(s.identityProvider) : undefined;
  const group = idp && parentOf(idp.uid);
  if (idp && group && idp.defaultRole && ctx.store.roles.has(idp.defaultRole))
    ctx.store.putBinding(bindingRecord(freshUid(ctx.store.roleBindings, group), uid, idp.defaultRole, now));
  return r;
}

/**
 * Workload identities by the exact issuer and subject their claimMatch or staticKeys name, kept
 * until those rules change (not when a federation moves a lastSeenTime): a lookup costs one map
 * read, not a scan of the organization.
 */
const workloadIndex = new WeakMap<object, { version: number; bySubject: Map<string, string[]> }>();
function workloadsNamed(ctx: ServerContext, issuer: string, subject: string): string[] {
  const coll = ctx.store.identities;
  const version = ctx.store.identityRulesVersion;
  let ix = workloadIndex.get(coll);
  if (ix?.version !== version) {
    const bySubject = new Map<string, string[]>();
    for (const i of coll.all()) {
      const rule = i.claimMatch ?? i.staticKeys;
      if (rule?.issuer === undefined || rule.subject === undefined) continue;
      const k = `${rule.issuer}\u0000${rule.subject}`;
      const list = bySubject.get(k);
      if (list) list.push(i.uid);
      else bySubject.set(k, [i.uid]);
    }
    workloadIndex.set(coll, (ix = { version, bySubject }));
  }
  return ix.bySubject.get(`${issuer}\u0000${subject}`) ?? [];
}

/**
 * The identity `caller` finds by `issuer` and `subject`, as the platform's lookup finds it: the
 * person who signed in with them, else the one workload identity whose claimMatch (or staticKeys)
 * names exactly that issuer and subject, among those the caller may list (one it may not list is
 * answered as if it did not exist). Several such workload identities are FAILED_PRECONDITION.
 */
export function lookupIdentity(ctx: ServerContext, caller: string, issuer: string, subject: string): IdentityRecord | undefined {
  const person = findPerson(ctx, issuer, subject);
  if (person) return person;
  const visible = workloadsNamed(ctx, issuer, subject).filter((uid) => ctx.authz.can(caller, "identity.list", parentOf(uid)!));
  if (visible.length > 1)
    throw failedPrecondition(`${visible.length} identities match issuer ${issuer} and subject ${subject}: look one up by uid (${visible.join(", ")})`, [
      { type: "AMBIGUOUS", subject: `issuer=${issuer}&subject=${subject}`, description: `${visible.length} identities match` },
    ]);
  return visible.length === 1 ? ctx.store.identities.get(visible[0]) : undefined;
}

/** The uid `LookupIdentity` answers: the identity found, else the uid the person will have once they sign in. */
export function lookupUid(ctx: ServerContext, caller: string, issuer: string, subject: string): string {
  return lookupIdentity(ctx, caller, issuer, subject)?.uid ?? personUid(personIssuer(ctx, issuer), subject);
}
