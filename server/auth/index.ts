/** Authentication: the server's token issuer, the per-request hook, and token exchange. */
export { TokenIssuer, type IssuerUrls } from "./tokens";
export { authenticate } from "./authenticate";
export { registerAuthRoutes, AUTH_PREFIX } from "./routes";
