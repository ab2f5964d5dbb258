/**
 * A package's version streams and end-of-life data: the registry v1 `GetPackageVersionMetadata`,
 * `GET /registry/v1/versions/{package=**}`, answering `PackageVersionMetadata` from the fixtures'
 * catalog (ctx.packageVersions). The platform marks it `unscoped` with `CAP_VERSION_LIST`: the
 * caller needs `version.list` on some group, whichever.
 */
import type { FastifyInstance } from "fastify";
import { packageNameProblem } from "../../api/versions";
import { callerOf, type ServerContext } from "../context";
import { identityOf } from "../authz";
import { invalidField, notFound, permissionDenied } from "../errors";

export const VERSIONS_PATH = "/registry/v1/versions";
const CAPABILITY = "version.list";

export function registerVersionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get(`${VERSIONS_PATH}/*`, async (req) => {
    const name = (req.params as { "*"?: string })["*"] ?? "";
    const problem = packageNameProblem(name);
    if (problem) throw invalidField("package", problem);
    const caller = callerOf(req);
    if (!ctx.authz.grants(caller).some((g) => g.capabilities.has(CAPABILITY)))
      throw permissionDenied(`identity ${identityOf(caller)} lacks "${CAPABILITY}" on every group`);
    const found = ctx.packageVersions.get(name);
    if (!found) throw notFound(`version metadata of package ${JSON.stringify(name)}`);
    return found;
  });
}
