/** A repo deployment's test setup: its path, and the seed that lets the admin create one (server/sample/deployer.ts). */
export { deployerRole, seedDeployer } from "../../server/sample/deployer";

/** The path of repo `uid`'s deployment on registry v1. */
export const deploymentPath = (uid: string): string => `/registry/v1/repos/${uid}/deployment`;
