import { describe, expect, it } from "vitest";
import { resources } from "../../api";

// Responses are read loosely: values that the request rules would refuse, and fields this
// client does not know yet, still parse, so a newer API does not break reads and refreshes.
describe("response shapes", () => {
  it("read identity kinds and account blocks without the request rules", () => {
    const base = { uid: "a".repeat(40) + "/0123456789abcdef", name: "x-0", createTime: "t", updateTime: "t" };
    const identity = resources.Identity.parse({
      ...base,
      claimMatch: { issuerPattern: "", subject: "s", newMatcher: true },
      staticKeys: { issuer: "http://example.com", subject: "s", issuerKeys: "{}", expirationTime: "2030-01-01T00:00:00Z" },
      servicePrincipal: "A_PRINCIPAL_ADDED_LATER",
      addedLater: { x: 1 },
    });
    expect(identity.claimMatch).toMatchObject({ issuerPattern: "", newMatcher: true });
    expect(identity.staticKeys?.expirationTime).toBe("2030-01-01T00:00:00Z");
    expect(identity.servicePrincipal).toBe("A_PRINCIPAL_ADDED_LATER");
    expect(identity).toMatchObject({ addedLater: { x: 1 }, description: "" });

    const association = resources.AccountAssociation.parse({
      ...base,
      azure: { tenantId: "not-a-uuid-yet", clientIds: { app: "x" } },
      amazon: { account: "42" },
    });
    expect(association.azure?.tenantId).toBe("not-a-uuid-yet");
    expect(association.amazon?.account).toBe("42");
  });

  it("still refuses a response missing what every resource has", () => {
    expect(resources.Group.safeParse({ name: "no uid" }).success).toBe(false);
  });

  // What the platform's gateway writes (protojson with every field emitted): unset messages and
  // optional fields as null, enums by name, int64 as strings, oneof members only when set.
  it("read the registry's, the advisories' and the list envelope's shapes as the gateway writes them", () => {
    const uid = `${"a".repeat(40)}/0123456789abcdef`;
    const tag = resources.Tag.parse({
      uid: `${uid}/0123456789abcdef`,
      name: "latest",
      digest: "sha256:x",
      updateTime: "2025-05-01T12:00:00Z",
      deprecated: false,
      bundles: [],
    });
    expect(tag.updateTime).toBe("2025-05-01T12:00:00Z");
    const repo = resources.Repo.parse({
      uid,
      name: "nginx",
      description: "",
      catalogTier: "CATALOG_TIER_APPLICATION",
      bundles: [],
      aliases: [],
      activeTags: ["latest"],
      sync_config: null,
      customOverlay: null,
      createTime: "2025-01-01T00:00:00Z",
      updateTime: null,
    });
    expect(repo.catalogTier).toBe("CATALOG_TIER_APPLICATION");
    // Unset messages and optional fields (null on the wire) read as absent.
    for (const unset of ["sync_config", "customOverlay", "updateTime"]) expect(repo).not.toHaveProperty(unset);
    const advisory = resources.Advisory.parse({
      uid,
      advisoryId: "CGA-2345-6789-cfgh",
      createTime: "2025-01-01T00:00:00Z",
      updateTime: "2025-01-02T00:00:00.123456Z",
      deleteTime: null,
      author: "a",
      artifactName: "nginx",
      artifactType: "apk",
      artifactArchitecture: "x86_64",
      componentName: "openssl",
      componentLocation: "/usr/lib",
      componentType: "apk",
      aliases: ["CVE-2025-1"],
      legacyAdvisoryId: null,
      severities: [{ type: "TYPE_CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
      events: [
        {
          uid: `${uid}/1111111111111111`,
          createTime: "2025-01-01T00:00:00Z",
          findings: "e30=",
          author: "a",
          reviewer: "",
          reviewState: "REVIEW_STATE_APPROVED",
          issue: null,
          detection: { scanv1: { scanner: "grype" } },
        },
        {
          uid: `${uid}/2222222222222222`,
          createTime: null,
          findings: "",
          author: "a",
          reviewer: "r",
          reviewState: "REVIEW_STATE_NEW_LATER",
          issue: "i",
          fixed: { fixedVersion: "1.1", note: "" },
          newMember: 1,
        },
      ],
    });
    expect(advisory.severities[0].type).toBe("TYPE_CVSS_V3");
    expect(advisory.events[0].detection?.scanv1?.componentVersion).toBe("");
    expect(advisory.events[0].issue).toBeUndefined();
    expect(advisory.events[1]).toMatchObject({ reviewState: "REVIEW_STATE_NEW_LATER", fixed: { fixedVersion: "1.1", scannerVersion: "" }, newMember: 1 });
    expect(advisory.deleteTime).toBeUndefined();
    // The shapes before v2beta1's protos were read are refused: a severity's score is a string.
    expect(resources.Advisory.safeParse({ uid, advisoryId: "x", severities: [{ source: "NVD", score: 7.5 }] }).success).toBe(false);

    const envelope = resources.listOf("tags", resources.Tag).parse({ tags: [tag], nextPageToken: "", totalCount: null, skipped: 0 });
    expect(envelope).toMatchObject({ totalCount: "0", nextPageToken: "" });
  });
});
