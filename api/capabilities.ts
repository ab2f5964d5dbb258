/**
 * The platform's capabilities: every value of its `chainguard.capabilities.Capability` enum but
 * the reserved ones, as [friendly name, enum name, number, flags]. Programs, `irv` and the
 * guardrails use the friendly dotted names (`groups.list`), as the platform's CLI and Terraform
 * provider do; the API carries the enum names (`CAP_IAM_GROUPS_LIST`). Flags: `d` deprecated,
 * `i` internal only (no role of a customer organization may hold it).
 * `registry.pull` and `registry.push` are no capabilities: the enum reserves their numbers.
 */
const TABLE = [
  ["internal", "CAP_INTERNAL", 2],
  ["groups.create", "CAP_IAM_GROUPS_CREATE", 101],
  ["groups.update", "CAP_IAM_GROUPS_UPDATE", 102],
  ["groups.list", "CAP_IAM_GROUPS_LIST", 103],
  ["groups.delete", "CAP_IAM_GROUPS_DELETE", 104],
  ["group_invites.create", "CAP_IAM_GROUP_INVITES_CREATE", 201],
  ["group_invites.list", "CAP_IAM_GROUP_INVITES_LIST", 203],
  ["group_invites.delete", "CAP_IAM_GROUP_INVITES_DELETE", 204],
  ["roles.create", "CAP_IAM_ROLES_CREATE", 301],
  ["roles.update", "CAP_IAM_ROLES_UPDATE", 302],
  ["roles.list", "CAP_IAM_ROLES_LIST", 303],
  ["roles.delete", "CAP_IAM_ROLES_DELETE", 304],
  ["role_bindings.create", "CAP_IAM_ROLE_BINDINGS_CREATE", 401],
  ["role_bindings.update", "CAP_IAM_ROLE_BINDINGS_UPDATE", 402],
  ["role_bindings.list", "CAP_IAM_ROLE_BINDINGS_LIST", 403],
  ["role_bindings.delete", "CAP_IAM_ROLE_BINDINGS_DELETE", 404],
  ["clusters.create", "CAP_TENANT_CLUSTERS_CREATE", 501, "d"],
  ["clusters.update", "CAP_TENANT_CLUSTERS_UPDATE", 502, "d"],
  ["clusters.list", "CAP_TENANT_CLUSTERS_LIST", 503, "d"],
  ["clusters.delete", "CAP_TENANT_CLUSTERS_DELETE", 504, "d"],
  ["clusters.discover", "CAP_TENANT_CLUSTERS_DISCOVER", 505, "d"],
  ["records.list", "CAP_TENANT_RECORDS_LIST", 603, "d"],
  ["record_contexts.list", "CAP_TENANT_RECORD_CONTEXTS_LIST", 613, "d"],
  ["record_signatures.list", "CAP_TENANT_RECORD_SIGNATURES_LIST", 623],
  ["record_policy_results.list", "CAP_TENANT_RECORD_POLICY_RESULTS_LIST", 633, "d"],
  ["risks.list", "CAP_TENANT_RISKS_LIST", 640, "d"],
  ["sboms.list", "CAP_TENANT_SBOMS_LIST", 650],
  ["vuln_reports.list", "CAP_TENANT_VULN_REPORTS_LIST", 660],
  ["attestations.list", "CAP_TENANT_ATTESTATIONS_LIST", 670],
  ["account_associations.create", "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE", 701],
  ["account_associations.update", "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE", 702],
  ["account_associations.list", "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST", 703],
  ["account_associations.delete", "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE", 704],
  ["policy.create", "CAP_IAM_POLICY_CREATE", 801, "d"],
  ["policy.update", "CAP_IAM_POLICY_UPDATE", 802, "d"],
  ["policy.list", "CAP_IAM_POLICY_LIST", 803, "d"],
  ["policy.delete", "CAP_IAM_POLICY_DELETE", 804, "d"],
  ["identity.create", "CAP_IAM_IDENTITY_CREATE", 901],
  ["identity.update", "CAP_IAM_IDENTITY_UPDATE", 902],
  ["identity.list", "CAP_IAM_IDENTITY_LIST", 903],
  ["identity.delete", "CAP_IAM_IDENTITY_DELETE", 904],
  ["nodes.list", "CAP_TENANT_NODES_LIST", 1003, "d"],
  ["namespaces.list", "CAP_TENANT_NAMESPACES_LIST", 1103, "d"],
  ["workloads.list", "CAP_TENANT_WORKLOADS_LIST", 1203, "d"],
  ["identity_providers.create", "CAP_IAM_IDENTITY_PROVIDERS_CREATE", 1301],
  ["identity_providers.update", "CAP_IAM_IDENTITY_PROVIDERS_UPDATE", 1302],
  ["identity_providers.list", "CAP_IAM_IDENTITY_PROVIDERS_LIST", 1303],
  ["identity_providers.delete", "CAP_IAM_IDENTITY_PROVIDERS_DELETE", 1304],
  ["identity_providers.scim.manage", "CAP_IAM_SCIM_MANAGE", 1305],
  ["subscriptions.create", "CAP_EVENTS_SUBSCRIPTION_CREATE", 1501],
  ["subscriptions.update", "CAP_EVENTS_SUBSCRIPTION_UPDATE", 1502],
  ["subscriptions.list", "CAP_EVENTS_SUBSCRIPTION_LIST", 1503],
  ["subscriptions.delete", "CAP_EVENTS_SUBSCRIPTION_DELETE", 1504],
  ["repo.blobs.get", "CAP_REPO_BLOBS_GET", 1600],
  ["repo.create", "CAP_REPO_CREATE", 1603],
  ["repo.update", "CAP_REPO_UPDATE", 1604],
  ["repo.list", "CAP_REPO_LIST", 1605],
  ["repo.delete", "CAP_REPO_DELETE", 1606],
  ["manifest.create", "CAP_MANIFEST_CREATE", 1607],
  ["manifest.update", "CAP_MANIFEST_UPDATE", 1608],
  ["manifest.list", "CAP_MANIFEST_LIST", 1609],
  ["manifest.delete", "CAP_MANIFEST_DELETE", 1610],
  ["tag.create", "CAP_TAG_CREATE", 1611],
  ["tag.update", "CAP_TAG_UPDATE", 1612],
  ["tag.list", "CAP_TAG_LIST", 1613],
  ["tag.delete", "CAP_TAG_DELETE", 1614],
  ["manifest.metadata.list", "CAP_MANIFEST_METADATA_LIST", 1615],
  ["referrers.list", "CAP_REFERRERS_LIST", 1616],
  ["repo.internal.admin", "CAP_REPO_INTERNAL_ADMIN", 1617, "i"],
  ["apk.create", "CAP_APK_CREATE", 1650],
  ["apk.update", "CAP_APK_UPDATE", 1651],
  ["apk.list", "CAP_APK_LIST", 1652],
  ["apk.delete", "CAP_APK_DELETE", 1653],
  ["version.list", "CAP_VERSION_LIST", 1654],
  ["apk.blobs.get", "CAP_APK_BLOBS_GET", 1655],
  ["vuln_report.create", "CAP_VULN_REPORT_CREATE", 1660],
  ["vuln_report.list", "CAP_VULN_REPORT_LIST", 1661],
  ["vuln.create", "CAP_VULN_CREATE", 1662],
  ["build_report.list", "CAP_BUILD_REPORT_LIST", 1670],
  ["registry.entitlements.list", "CAP_REGISTRY_ENTITLEMENTS_LIST", 1680],
  ["registry.entitlements.create", "CAP_REGISTRY_ENTITLEMENTS_CREATE", 1681],
  ["registry.entitlements.delete", "CAP_REGISTRY_ENTITLEMENTS_DELETE", 1682],
  ["registry.settings.list", "CAP_REGISTRY_SETTINGS_LIST", 1683],
  ["registry.settings.update", "CAP_REGISTRY_SETTINGS_UPDATE", 1684],
  ["registry.entitlements.images.add", "CAP_REGISTRY_ENTITLEMENTS_IMAGES_ADD", 1685],
  ["registry.entitlements.images.remove", "CAP_REGISTRY_ENTITLEMENTS_IMAGES_REMOVE", 1686],
  ["registry.entitlements.images.swap", "CAP_REGISTRY_ENTITLEMENTS_IMAGES_SWAP", 1687],
  ["registry.overlays.list", "CAP_REGISTRY_OVERLAYS_LIST", 1688],
  ["registry.overlays.edit", "CAP_REGISTRY_OVERLAYS_EDIT", 1689],
  ["sigstore.create", "CAP_SIGSTORE_CREATE", 1701, "d"],
  ["sigstore.update", "CAP_SIGSTORE_UPDATE", 1702, "d"],
  ["sigstore.list", "CAP_SIGSTORE_LIST", 1703, "d"],
  ["sigstore.delete", "CAP_SIGSTORE_DELETE", 1704, "d"],
  ["sigstore.certificate.create", "CAP_SIGSTORE_CERTIFICATE_CREATE", 1705, "d"],
  ["libraries.entitlements.create", "CAP_LIBRARIES_ENTITLEMENTS_CREATE", 1800],
  ["libraries.entitlements.list", "CAP_LIBRARIES_ENTITLEMENTS_LIST", 1801],
  ["libraries.entitlements.delete", "CAP_LIBRARIES_ENTITLEMENTS_DELETE", 1802],
  ["libraries.artifacts.list", "CAP_LIBRARIES_ARTIFACTS_LIST", 1803],
  ["libraries.python.list", "CAP_LIBRARIES_PYTHON_LIST", 1810],
  ["libraries.python.create", "CAP_LIBRARIES_PYTHON_CREATE", 1811],
  ["libraries.java.list", "CAP_LIBRARIES_JAVA_LIST", 1820],
  ["libraries.java.create", "CAP_LIBRARIES_JAVA_CREATE", 1821],
  ["libraries.javascript.list", "CAP_LIBRARIES_JAVASCRIPT_LIST", 1830],
  ["libraries.javascript.create", "CAP_LIBRARIES_JAVASCRIPT_CREATE", 1831],
  ["libraries.dotnet.list", "CAP_LIBRARIES_DOTNET_LIST", 1832],
  ["libraries.dotnet.create", "CAP_LIBRARIES_DOTNET_CREATE", 1833],
  ["libraries.go.list", "CAP_LIBRARIES_GO_LIST", 1834],
  ["libraries.go.create", "CAP_LIBRARIES_GO_CREATE", 1835],
  ["libraries.rebuilder.requests.create", "CAP_LIBRARIES_REBUILDER_REQUESTS_CREATE", 1840, "i"],
  ["libraries.rebuilder.requests.list", "CAP_LIBRARIES_REBUILDER_REQUESTS_LIST", 1841, "i"],
  ["libraries.rebuilder.requests.cancel", "CAP_LIBRARIES_REBUILDER_REQUESTS_CANCEL", 1842, "i"],
  ["libraries.rebuilder.requests.group.update", "CAP_LIBRARIES_REBUILDER_REQUESTS_GROUP_UPDATE", 1843, "i"],
  ["libraries.rebuilder.artifacts.invalidate", "CAP_LIBRARIES_REBUILDER_ARTIFACTS_INVALIDATE", 1850, "i"],
  ["libraries.rebuilder.exclusions.manage", "CAP_LIBRARIES_REBUILDER_EXCLUSIONS_MANAGE", 1851, "i"],
  ["libraries.rebuilder.builds.read", "CAP_LIBRARIES_REBUILDER_BUILDS_READ", 1852, "i"],
  ["libraries.rebuilder.builds.tokens.fetch", "CAP_LIBRARIES_REBUILDER_BUILDS_TOKENS_FETCH", 1853, "i"],
  ["libraries.rebuilder.builds.untrusted", "CAP_LIBRARIES_REBUILDER_BUILDS_UNTRUSTED", 1854, "i"],
  ["libraries.rebuilder.remediated_artifacts.read", "CAP_LIBRARIES_REBUILDER_REMEDIATED_ARTIFACTS_READ", 1855, "i"],
  ["libraries.rebuilder.new_versions.read", "CAP_LIBRARIES_REBUILDER_NEW_VERSIONS_READ", 1856, "i"],
  ["libraries.rebuilder.new_versions.refresh", "CAP_LIBRARIES_REBUILDER_NEW_VERSIONS_REFRESH", 1857, "i"],
  ["libraries.rebuilder.malware.status.read", "CAP_LIBRARIES_REBUILDER_MALWARE_STATUS_READ", 1858, "i"],
  ["libraries.rebuilder.cve_remediations.list", "CAP_LIBRARIES_REBUILDER_CVE_REMEDIATIONS_LIST", 1859, "i"],
  ["libraries.cache.invalidate", "CAP_LIBRARIES_CACHE_INVALIDATE", 1860],
  ["libraries.rebuilder.cve_remediations.update", "CAP_LIBRARIES_REBUILDER_CVE_REMEDIATIONS_UPDATE", 1861, "i"],
  ["libraries.cache.list", "CAP_LIBRARIES_CACHE_LIST", 1862],
  ["libraries.rebuilder.source_coordinates.write", "CAP_LIBRARIES_REBUILDER_SOURCE_COORDINATES_WRITE", 1863, "i"],
  ["libraries.rebuilder.source_coordinates.resolve", "CAP_LIBRARIES_REBUILDER_SOURCE_COORDINATES_RESOLVE", 1864, "i"],
  ["libraries.aws_marketplace.subscriptions.create", "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_CREATE", 1870],
  ["libraries.aws_marketplace.subscriptions.update", "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_UPDATE", 1871],
  ["libraries.aws_marketplace.subscriptions.list", "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_LIST", 1872],
  ["libraries.request_groups.create", "CAP_LIBRARIES_REQUEST_GROUPS_CREATE", 1874],
  ["libraries.request_groups.list", "CAP_LIBRARIES_REQUEST_GROUPS_LIST", 1875],
  ["libraries.request_groups.update", "CAP_LIBRARIES_REQUEST_GROUPS_UPDATE", 1876],
  ["libraries.request_groups.delete", "CAP_LIBRARIES_REQUEST_GROUPS_DELETE", 1877],
  ["libraries.request_groups.submit", "CAP_LIBRARIES_REQUEST_GROUPS_SUBMIT", 1878],
  ["libraries.request_groups.items.update", "CAP_LIBRARIES_REQUEST_GROUPS_ITEMS_UPDATE", 1879],
  ["libraries.request_groups.refresh_coverage", "CAP_LIBRARIES_REQUEST_GROUPS_REFRESH_COVERAGE", 1880, "i"],
  ["libraries.request_groups.delete_submitted", "CAP_LIBRARIES_REQUEST_GROUPS_DELETE_SUBMITTED", 1881, "i"],
  ["libraries.remote_registries.create", "CAP_LIBRARIES_REMOTE_REGISTRIES_CREATE", 1882],
  ["libraries.remote_registries.list", "CAP_LIBRARIES_REMOTE_REGISTRIES_LIST", 1883],
  ["libraries.remote_registries.delete", "CAP_LIBRARIES_REMOTE_REGISTRIES_DELETE", 1884],
  ["advisories.create", "CAP_ADVISORIES_CREATE", 1900],
  ["advisories.update", "CAP_ADVISORIES_UPDATE", 1901],
  ["advisories.list", "CAP_ADVISORIES_LIST", 1902],
  ["advisories.delete", "CAP_ADVISORIES_DELETE", 1903],
  ["advisories.approve", "CAP_ADVISORIES_APPROVE", 1904],
  ["registry.deployments.create", "CAP_REGISTRY_DEPLOYMENTS_CREATE", 1950],
  ["registry.deployments.update", "CAP_REGISTRY_DEPLOYMENTS_UPDATE", 1951, "i"],
  ["registry.deployments.list", "CAP_REGISTRY_DEPLOYMENTS_LIST", 1952],
  ["policies.policy.create", "CAP_POLICIES_POLICY_CREATE", 2001],
  ["policies.policy.update", "CAP_POLICIES_POLICY_UPDATE", 2002],
  ["policies.policy.list", "CAP_POLICIES_POLICY_LIST", 2003],
  ["policies.policy.delete", "CAP_POLICIES_POLICY_DELETE", 2004],
  ["policies.binding.create", "CAP_POLICIES_BINDING_CREATE", 2011],
  ["policies.binding.update", "CAP_POLICIES_BINDING_UPDATE", 2012],
  ["policies.binding.list", "CAP_POLICIES_BINDING_LIST", 2013],
  ["policies.binding.delete", "CAP_POLICIES_BINDING_DELETE", 2014],
  ["policies.decision.list", "CAP_POLICIES_DECISION_LIST", 2015],
  ["policies.override.create", "CAP_POLICIES_OVERRIDE_CREATE", 2016],
  ["policies.override.list", "CAP_POLICIES_OVERRIDE_LIST", 2017],
  ["policies.override.delete", "CAP_POLICIES_OVERRIDE_DELETE", 2018],
  ["repo.check_policies", "CAP_REPO_CHECK_POLICIES", 2020],
  ["packages.entitlements.list", "CAP_PACKAGES_ENTITLEMENTS_LIST", 2100],
  ["terms.accept", "CAP_TERMS_ACCEPT", 2201],
  ["terms.list", "CAP_TERMS_LIST", 2202],
  ["guardener.dfc.convert", "CAP_GUARDENER_DFC_CONVERT", 2301],
  ["guardener.association.manage", "CAP_GUARDENER_ASSOCIATION_MANAGE", 2302],
  ["guardener.association.list", "CAP_GUARDENER_ASSOCIATION_LIST", 2303],
  ["guardener.entitlement.manage", "CAP_GUARDENER_ENTITLEMENT_MANAGE", 2304, "i"],
  ["guardener.entitlement.list", "CAP_GUARDENER_ENTITLEMENT_LIST", 2305],
  ["guardener.actions.migrate", "CAP_GUARDENER_ACTIONS_MIGRATE", 2306],
  ["guardener.scan.list", "CAP_GUARDENER_SCAN_LIST", 2307],
  ["guardener.scan.get", "CAP_GUARDENER_SCAN_GET", 2308],
  ["mcp.tool.call", "CAP_MCP_TOOL_CALL", 2401],
  ["skills.publish", "CAP_SKILLS_PUBLISH", 2501],
  ["skills.entitlements.create", "CAP_SKILLS_ENTITLEMENTS_CREATE", 2502],
  ["skills.entitlements.list", "CAP_SKILLS_ENTITLEMENTS_LIST", 2503],
  ["skills.entitlements.delete", "CAP_SKILLS_ENTITLEMENTS_DELETE", 2504],
  ["skills.write", "CAP_SKILLS_WRITE", 2505, "i"],
  ["skills.delete", "CAP_SKILLS_DELETE", 2506, "i"],
  ["skills.list", "CAP_SKILLS_LIST", 2507],
  ["skills.harden.read", "CAP_SKILLS_HARDEN_READ", 2508],
  ["skills.harden.write", "CAP_SKILLS_HARDEN_WRITE", 2509],
  ["skills.harden.cancel", "CAP_SKILLS_HARDEN_CANCEL", 2510],
  ["argos.documents.create", "CAP_ARGOS_DOCUMENTS_CREATE", 2601],
  ["argos.documents.list", "CAP_ARGOS_DOCUMENTS_LIST", 2602],
  ["argos.documents.delete", "CAP_ARGOS_DOCUMENTS_DELETE", 2603],
  ["argos.osv.read", "CAP_ARGOS_OSV_READ", 2604],
  ["libraries.policy.create", "CAP_LIBRARIES_POLICY_CREATE", 2605],
  ["libraries.policy.update", "CAP_LIBRARIES_POLICY_UPDATE", 2606],
  ["libraries.policy.list", "CAP_LIBRARIES_POLICY_LIST", 2607],
  ["libraries.policy.delete", "CAP_LIBRARIES_POLICY_DELETE", 2608],
  ["libraries.policy.binding.create", "CAP_LIBRARIES_POLICY_BINDING_CREATE", 2609],
  ["libraries.policy.binding.update", "CAP_LIBRARIES_POLICY_BINDING_UPDATE", 2610],
  ["libraries.policy.binding.list", "CAP_LIBRARIES_POLICY_BINDING_LIST", 2611],
  ["libraries.policy.binding.delete", "CAP_LIBRARIES_POLICY_BINDING_DELETE", 2612],
  ["libraries.policy.block_event.list", "CAP_LIBRARIES_POLICY_BLOCK_EVENT_LIST", 2613],
  ["argos.osv.dump", "CAP_ARGOS_OSV_DUMP", 2614],
  ["actions.list", "CAP_ACTIONS_LIST", 2700],
  ["buildapi.build.create", "CAP_BUILDAPI_BUILD_CREATE", 2701, "i"],
  ["buildapi.build.list", "CAP_BUILDAPI_BUILD_LIST", 2702, "i"],
  ["buildapi.worker.sync", "CAP_BUILDAPI_WORKER_SYNC", 2703, "i"],
  ["buildapi.build.cancel", "CAP_BUILDAPI_BUILD_CANCEL", 2704, "i"],
  ["rex.executions.create", "CAP_REX_EXECUTIONS_CREATE", 2705, "i"],
  ["rex.executions.list", "CAP_REX_EXECUTIONS_LIST", 2706, "i"],
  ["rex.workers.connect", "CAP_REX_WORKERS_CONNECT", 2707, "i"],
  ["rex.class.use", "CAP_REX_CLASS_USE", 2708, "i"],
  ["rex.class.serve", "CAP_REX_CLASS_SERVE", 2709, "i"],
  ["cassie.cas.read", "CAP_CASSIE_CAS_READ", 2801, "i"],
  ["cassie.cas.write", "CAP_CASSIE_CAS_WRITE", 2802, "i"],
  ["cassie.ac.write", "CAP_CASSIE_AC_WRITE", 2803, "i"],
  ["cassie.ac.read", "CAP_CASSIE_AC_READ", 2804, "i"],
  ["loggie.logs.read", "CAP_LOGGIE_LOGS_READ", 2901, "i"],
  ["loggie.logs.write", "CAP_LOGGIE_LOGS_WRITE", 2902, "i"],
  ["loggie.logs.create", "CAP_LOGGIE_LOGS_CREATE", 2903, "i"],
  ["gulfstream", "CAP_GULFSTREAM", 10000],
] as const satisfies readonly (readonly [string, `CAP_${string}`, number, ("d" | "i" | "di")?])[];

/** One capability's friendly name. */
export type Capability = (typeof TABLE)[number][0];
/** One capability's enum name, as the API carries it. */
export type CapabilityEnum = (typeof TABLE)[number][1];

/** Every capability's friendly name, in the enum's order. */
export const CAPABILITIES = TABLE.map((r) => r[0]) as readonly Capability[] as readonly [Capability, ...Capability[]];

const byName = new Map<string, (typeof TABLE)[number]>(TABLE.map((r) => [r[0], r]));
const byEnum = new Map<string, (typeof TABLE)[number]>(TABLE.map((r) => [r[1], r]));

/** True when `name` is a capability's friendly name. */
export function isCapability(name: string): name is Capability {
  return byName.has(name);
}

/** The enum name of the capability `name` (`groups.list` -> `CAP_IAM_GROUPS_LIST`); a name that is none stays as it is. */
export function capabilityEnum(name: string): string {
  return byName.get(name)?.[1] ?? name;
}

/**
 * The friendly name of what a user or the API gives: a friendly name as is, an enum name
 * (`CAP_IAM_GROUPS_LIST`, as pasted from the API or its protos) as its friendly name; undefined
 * for anything else.
 */
export function capabilityNamed(s: string): Capability | undefined {
  return (byName.get(s) ?? byEnum.get(s))?.[0];
}

/** The enum's number of `name` (what the gRPC wire carries). */
export function capabilityNumber(name: Capability): number {
  return byName.get(name)![2];
}

/** Whether only the platform's own roles may hold `name`. */
export function isInternalOnly(name: Capability): boolean {
  const r = byName.get(name)!;
  return r[0] === "internal" || (r[3] ?? "").includes("i");
}

/**
 * The built-in roles as the platform defines them (its SDK's role sets): they live at the root,
 * cannot be changed or deleted, and have stable uids (`builtinRoleUid`, api/builtinRoles.ts) so
 * programs and tests can rely on them across restarts.
 */
const BUILTIN_SETS: Record<string, readonly Capability[]> = {
  "editor": [
    "account_associations.list", "actions.list", "advisories.list", "apk.blobs.get", "apk.list", "build_report.list", "group_invites.list", "groups.list", "guardener.actions.migrate", "guardener.association.list", "guardener.dfc.convert", "guardener.entitlement.list", "guardener.scan.get", "guardener.scan.list", "identity.list", "identity_providers.list", "libraries.artifacts.list", "libraries.aws_marketplace.subscriptions.list", "libraries.cache.list", "libraries.entitlements.list", "libraries.policy.binding.list", "libraries.policy.block_event.list", "libraries.policy.list", "libraries.remote_registries.list", "libraries.request_groups.create", "libraries.request_groups.delete", "libraries.request_groups.items.update", "libraries.request_groups.list", "libraries.request_groups.update", "manifest.list", "manifest.metadata.list", "packages.entitlements.list", "policies.binding.list", "policies.decision.list", "policies.override.list", "policies.policy.list", "record_signatures.list", "referrers.list", "registry.deployments.list", "registry.entitlements.list", "registry.overlays.edit", "registry.overlays.list", "registry.settings.list", "repo.blobs.get", "repo.create", "repo.delete", "repo.list", "repo.update", "role_bindings.list", "roles.list", "sboms.list", "skills.entitlements.list", "skills.list", "subscriptions.create", "subscriptions.delete", "subscriptions.list", "subscriptions.update", "tag.list", "terms.list", "version.list", "vuln_report.list", "vuln_reports.list",
  ],
  "owner": [
    "account_associations.create", "account_associations.delete", "account_associations.list", "account_associations.update", "actions.list", "advisories.list", "apk.blobs.get", "apk.create", "apk.delete", "apk.list", "build_report.list", "group_invites.create", "group_invites.delete", "group_invites.list", "groups.create", "groups.delete", "groups.list", "groups.update", "guardener.actions.migrate", "guardener.association.list", "guardener.association.manage", "guardener.dfc.convert", "guardener.entitlement.list", "guardener.scan.get", "guardener.scan.list", "identity.create", "identity.delete", "identity.list", "identity.update", "identity_providers.create", "identity_providers.delete", "identity_providers.list", "identity_providers.scim.manage", "identity_providers.update", "libraries.artifacts.list", "libraries.aws_marketplace.subscriptions.create", "libraries.aws_marketplace.subscriptions.list", "libraries.aws_marketplace.subscriptions.update", "libraries.cache.invalidate", "libraries.cache.list", "libraries.dotnet.create", "libraries.dotnet.list", "libraries.entitlements.create", "libraries.entitlements.delete", "libraries.entitlements.list", "libraries.go.create", "libraries.go.list", "libraries.java.create", "libraries.java.list", "libraries.javascript.create", "libraries.javascript.list", "libraries.policy.binding.create", "libraries.policy.binding.delete", "libraries.policy.binding.list", "libraries.policy.binding.update", "libraries.policy.block_event.list", "libraries.policy.create", "libraries.policy.delete", "libraries.policy.list", "libraries.policy.update", "libraries.python.create", "libraries.python.list", "libraries.remote_registries.create", "libraries.remote_registries.delete", "libraries.remote_registries.list", "libraries.request_groups.create", "libraries.request_groups.delete", "libraries.request_groups.items.update", "libraries.request_groups.list", "libraries.request_groups.submit", "libraries.request_groups.update", "manifest.create", "manifest.delete", "manifest.list", "manifest.metadata.list", "manifest.update", "mcp.tool.call", "packages.entitlements.list", "policies.binding.create", "policies.binding.delete", "policies.binding.list", "policies.binding.update", "policies.decision.list", "policies.override.create", "policies.override.delete", "policies.override.list", "policies.policy.create", "policies.policy.delete", "policies.policy.list", "policies.policy.update", "record_signatures.list", "referrers.list", "registry.deployments.list", "registry.entitlements.images.add", "registry.entitlements.images.remove", "registry.entitlements.images.swap", "registry.entitlements.list", "registry.overlays.edit", "registry.overlays.list", "registry.settings.list", "repo.blobs.get", "repo.check_policies", "repo.create", "repo.delete", "repo.list", "repo.update", "role_bindings.create", "role_bindings.delete", "role_bindings.list", "role_bindings.update", "roles.create", "roles.delete", "roles.list", "roles.update", "sboms.list", "skills.entitlements.create", "skills.entitlements.delete", "skills.entitlements.list", "skills.harden.cancel", "skills.harden.read", "skills.harden.write", "skills.list", "skills.publish", "subscriptions.create", "subscriptions.delete", "subscriptions.list", "subscriptions.update", "tag.create", "tag.delete", "tag.list", "tag.update", "terms.accept", "terms.list", "version.list", "vuln.create", "vuln_report.create", "vuln_report.list", "vuln_reports.list",
  ],
  "registry.pull": [
    "groups.list", "manifest.list", "manifest.metadata.list", "record_signatures.list", "referrers.list", "repo.blobs.get", "repo.list", "sboms.list", "tag.list", "vuln_reports.list",
  ],
  "registry.push": [
    "groups.create", "groups.list", "manifest.create", "manifest.delete", "manifest.list", "manifest.metadata.list", "manifest.update", "record_signatures.list", "referrers.list", "repo.blobs.get", "repo.create", "repo.delete", "repo.list", "repo.update", "sboms.list", "tag.create", "tag.delete", "tag.list", "tag.update", "vuln_reports.list",
  ],
  "viewer": [
    "account_associations.list", "actions.list", "advisories.list", "apk.blobs.get", "apk.list", "build_report.list", "group_invites.list", "groups.list", "guardener.actions.migrate", "guardener.association.list", "guardener.dfc.convert", "guardener.entitlement.list", "guardener.scan.get", "guardener.scan.list", "identity.list", "identity_providers.list", "libraries.artifacts.list", "libraries.aws_marketplace.subscriptions.list", "libraries.cache.list", "libraries.entitlements.list", "libraries.policy.binding.list", "libraries.policy.block_event.list", "libraries.policy.list", "libraries.remote_registries.list", "libraries.request_groups.list", "manifest.list", "manifest.metadata.list", "packages.entitlements.list", "policies.binding.list", "policies.decision.list", "policies.override.list", "policies.policy.list", "record_signatures.list", "referrers.list", "registry.deployments.list", "registry.entitlements.list", "registry.overlays.list", "registry.settings.list", "repo.blobs.get", "repo.list", "role_bindings.list", "roles.list", "sboms.list", "skills.entitlements.list", "skills.list", "subscriptions.list", "tag.list", "terms.list", "version.list", "vuln_report.list", "vuln_reports.list",
  ],
};

const DESCRIPTIONS: Record<string, string> = {
  viewer: "Built-in role: read everything, pull from the registry.",
  editor: "Built-in role: viewer plus registry writes. Cannot grant roles.",
  owner: "Built-in role: editor plus every IAM create, update and delete.",
  "registry.pull": "Built-in role: pull images.",
  "registry.push": "Built-in role: pull and push images.",
};

/** The built-in roles by name: a description and the capabilities they hold. */
export const BUILTIN_ROLES: Record<string, { description: string; capabilities: Capability[] }> = Object.fromEntries(
  Object.entries(BUILTIN_SETS).map(([name, caps]) => [name, { description: DESCRIPTIONS[name], capabilities: [...caps] }]),
);
