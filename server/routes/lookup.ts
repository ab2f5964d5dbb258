/**
 * Finding an identity by the issuer and subject of its sign-in, as the platform's lookups do
 * (both `unscoped`: any authenticated caller may ask):
 *   GET /iam/v2beta1/identities:lookupIdentity?issuer=&subject=  -> {uid}: the identity found, else
 *       the uid the person will have once they sign in (so bindings can name them before);
 *   GET /iam/v1/identities/lookup?issuer=&subject=              -> the v1 Identity, else NOT_FOUND.
 * A person is found by anyone; a workload identity only by a caller that may list it (people.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { COLLECTIONS } from "../../api/collections";
import { gaPath } from "../../api/grpc/ga";
import { ISSUER_MAX } from "../auth/external-token";
import { callerOf, type ServerContext } from "../context";
import { invalidField, notFound } from "../errors";
import type { RawQuery } from "../list";
import { lookupIdentity, lookupUid } from "../model";
import type { IdentityRecord } from "../store";
import { v1Path } from "./v1";

/** The longest subject looked up (a token's `sub`; bounds what a lookup hashes and compares). */
export const SUBJECT_MAX = 1024;

const BOUNDS = { issuer: ISSUER_MAX, subject: SUBJECT_MAX } as const;

/** The request's `issuer` and `subject`: each given once, not empty, bounded (INVALID_ARGUMENT naming it otherwise). */
function lookupParams(req: FastifyRequest): { issuer: string; subject: string } {
  const q = req.query as RawQuery;
  const one = (name: keyof typeof BOUNDS): string => {
    const v = q[name];
    if (Array.isArray(v)) throw invalidField(name, "must be given once");
    if (v === undefined || v === "") throw invalidField(name, "is required");
    if (v.length > BOUNDS[name]) throw invalidField(name, `must be at most ${BOUNDS[name]} characters`);
    return v;
  };
  return { issuer: one("issuer"), subject: one("subject") };
}

/** A v1 Identity (platform/iam/v1): its own names for the times and the static keys, service principals without their prefix. */
export function v1Identity(r: IdentityRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { id: r.uid, name: r.name, description: r.description, createdAt: r.createTime, updatedAt: r.updateTime };
  if (r.lastSeenTime) out.lastSeen = r.lastSeenTime;
  if (r.claimMatch) out.claimMatch = r.claimMatch;
  if (r.staticKeys) {
    const { expirationTime, ...keys } = r.staticKeys;
    out.static = { ...keys, ...(expirationTime === undefined ? {} : { expiration: expirationTime }) };
  }
  if (r.servicePrincipal) out.servicePrincipal = r.servicePrincipal.replace(/^SERVICE_PRINCIPAL_/, "");
  if (r.awsIdentity) out.awsIdentity = r.awsIdentity;
  return out;
}

/** Registers both lookups (in the authenticated scope). */
export function registerLookupRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const path = COLLECTIONS.identities.path;
  // `::` is a literal colon to the router (a single one would start a parameter).
  for (const at of [path, gaPath(path)])
    app.get(`${at}::lookupIdentity`, async (req) => {
      const { issuer, subject } = lookupParams(req);
      return { uid: lookupUid(ctx, callerOf(req), issuer, subject) };
    });
  app.get(`${v1Path(path)}/lookup`, async (req) => {
    const { issuer, subject } = lookupParams(req);
    const found = lookupIdentity(ctx, callerOf(req), issuer, subject);
    if (!found) throw notFound(`identity for issuer ${issuer} and subject ${subject}`);
    return v1Identity(found);
  });
}
