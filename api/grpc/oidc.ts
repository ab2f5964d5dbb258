/** The token exchange (`chainguard.platform.oidc`): irv-server serves its REST mapping under the issuer's `/auth`. */
import type { ProtoPackage } from "./proto";

export const oidc: ProtoPackage = {
  package: "chainguard.platform.oidc",
  services: {
    SecurityTokenService: {
      restPrefix: "/auth",
      methods: {
        Exchange: { request: "ExchangeRequest", response: "RawToken", http: { method: "post", path: "/sts/exchange" } },
        ExchangeRefreshToken: { served: false, http: { method: "post", path: "/sts/exchange_refresh_token" } },
      },
    },
  },
  messages: {
    ExchangeRequest: {
      fields: {
        aud: "1 repeated string",
        scope: "2 string",
        identity: "4 string",
        cap: "5 repeated string",
        identity_provider: "7 string",
        scopes: "8 repeated string",
      },
    },
    RawToken: { fields: { token: "1 string", refresh_token: "2 string", expiry: "3 google.protobuf.Timestamp" } },
  },
};
