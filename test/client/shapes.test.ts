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
});
