/**
 * A repo's deployment on registry v1: `POST` (CreateDeployment), `PUT` (UpdateDeployment) and
 * `GET` (GetDeployment) at `/registry/v1/repos/{id}/deployment`, with the charts' rules of its kind
 * (api/kinds/repoDeployments.ts). There is no List and no Delete: an Update with no charts clears
 * it (how the platform's Terraform provider destroys one), and it is gone with its repo. The store
 * keeps it as an item of its kind (`repoDeployments`, keyed by its repo's uid).
 *
 * Each method takes the platform's capability on the repo (its `iam_scope`): Get
 * `registry.deployments.list` (viewers hold it), Create `registry.deployments.create` (no built-in
 * role has it, a custom role may), Update `registry.deployments.update`, internal only: no role of
 * an organization can hold it, so only the platform's staff (server/staff.ts) may change or clear
 * a deployment; an organization's caller is told so.
 */
import type { FastifyRequest } from "fastify";
import { isInternalOnly, type Capability } from "../../../api/capabilities";
import { deploymentBody, type HelmChart } from "../../../api/kinds/repoDeployments";
import { isAnonymous } from "../../auth/anonymous";
import { identityOf } from "../../authz";
import { callerOf, type ServerContext } from "../../context";
import { alreadyExists, notFound, permissionDenied, unauthenticated } from "../../errors";
import { requireItem } from "../../model/common";
import { parseBody, parseUid } from "../../validate";

/** The path suffix after a repo's id. */
export const DEPLOYMENT_SUFFIX = "/deployment";

type Verb = "GET" | "POST" | "PUT";
const CAPABILITY: Record<Verb, Capability> = { GET: "registry.deployments.list", POST: "registry.deployments.create", PUT: "registry.deployments.update" };

/** The `Deployment` message: the repo's id and its charts. */
const render = (uid: string, charts: readonly HelmChart[]) => ({ id: uid, charts: charts.map((c) => ({ ...c })) });

/** Throws PERMISSION_DENIED unless the caller holds `capability` on the repo; an internal-only one is refused saying whose it is. */
function authorize(ctx: ServerContext, caller: string, capability: Capability, repo: string): void {
  if (ctx.authz.can(caller, capability, repo)) return;
  if (!isInternalOnly(capability)) return ctx.authz.require(caller, capability, repo);
  throw permissionDenied(
    `identity ${identityOf(caller)} lacks "${capability}" on repo ${repo}: it is the platform's own capability (internal only), which no role of an organization can hold; on the platform only its staff can change or clear a repo's deployment`,
  );
}

/** Answers a request to `<repo>/deployment`, `wildcard` being the path after `/registry/v1/repos/`. */
export function serveDeployment(ctx: ServerContext, req: FastifyRequest, wildcard: string): unknown {
  const verb = req.method as Verb;
  const uid = parseUid(wildcard.slice(0, -DEPLOYMENT_SUFFIX.length), verb === "POST" ? "parent_id" : "repo_id");
  // Repos' GETs admit callers without a token (public repos); a deployment is never public.
  if (isAnonymous(req)) throw unauthenticated("a repo's deployment is read with a token");
  authorize(ctx, callerOf(req), CAPABILITY[verb], uid);
  requireItem(ctx.store.repos, uid, "repo");
  const deployments = ctx.store.repoDeployments;
  const live = deployments.get(uid);
  if (verb === "GET") {
    if (!live) throw notFound(`deployment of repo ${uid}`);
    return render(uid, live.charts);
  }
  const charts = parseBody(deploymentBody(), req.body).charts ?? [];
  if (verb === "POST" && live) throw alreadyExists(`repo ${uid} already has a deployment: UpdateDeployment changes it`);
  if (verb === "PUT" && !live) throw notFound(`deployment of repo ${uid}`);
  // No charts clears it: Get answers NOT_FOUND and Create may make it again. The repo itself does
  // not change (its updateTime stays), so its deployment makes no drift on it.
  ctx.store.transaction(() => {
    if (!charts.length) {
      if (live) deployments.remove(uid);
    } else if (live) deployments.replace({ uid, charts });
    else deployments.insert({ uid, charts });
  });
  return render(uid, charts);
}
