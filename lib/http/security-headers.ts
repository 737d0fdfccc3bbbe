/**
 * The content security policy of every response. Headers set here are fixed when the app is built, so the
 * policy cannot carry a per-request nonce; it is Next.js's documented policy "without nonces":
 *
 * - `script-src 'self' 'unsafe-inline'`: Next.js streams each page's data in inline `<script>` tags
 *   (`self.__next_f.push(...)`) and next-themes sets the theme with one before the first paint; neither can
 *   carry a nonce without rendering every page per request. `'unsafe-eval'` only under `next dev`, where React
 *   uses eval to rebuild server stacks in the browser; production needs none (and zod is told not to probe for
 *   it, in instrumentation-client.ts).
 * - `style-src 'self' 'unsafe-inline'`: Next.js and the charts set inline styles.
 * - `img-src 'self' data: blob:`: tool results show images as data URLs. Pages that show OAuth clients' logos
 *   (the consent page, Connected apps) also allow https images: a logo is where its client publishes it.
 * - `connect-src 'self'`: the browser only talks to the app (the chat stream, server actions; in development
 *   the hot-reload socket, which 'self' covers).
 * - `frame-ancestors 'none'` (with `X-Frame-Options: DENY` for older browsers): no page can be framed, so
 *   none can be clickjacked; `object-src 'none'` and `base-uri 'self'` close the usual script-injection doors.
 * - No `form-action`: browsers apply it to the redirects after a form is sent, and signing in with single
 *   sign-on redirects to the identity provider's address, which is run-time configuration.
 * - No `upgrade-insecure-requests`: the app is also served over plain HTTP (on a laptop, behind a proxy that
 *   ends TLS, in the end-to-end tests), where upgrading its own requests would break every page.
 */
function contentSecurityPolicy(dev: boolean, remoteImages: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${remoteImages ? " https:" : ""}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The paths whose pages show OAuth clients' logos, which their clients host. */
export const REMOTE_IMAGE_PATHS = ["/oauth/consent", "/settings/connected-apps"];

/** The headers every response carries: pages and API answers alike (next.config.ts and the Node-served routes). */
export function securityHeaders(
  dev: boolean,
  { remoteImages = false } = {},
): { key: string; value: string }[] {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(dev, remoteImages) },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  ];
}
