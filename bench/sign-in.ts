/** The name=value pairs of a response's Set-Cookie headers. */
function cookiesOf(response: Response): Record<string, string> {
  return Object.fromEntries(
    response.headers.getSetCookie().map((line) => {
      const pair = line.split(";")[0] ?? "";
      const at = pair.indexOf("=");
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

const cookieHeader = (cookies: Record<string, string>) =>
  Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");

/**
 * Signs in with email and password the way a browser's form post to Auth.js does (its CSRF token, then the
 * credentials callback) and returns the Cookie header of the session.
 */
export async function signIn(origin: string, credentials: { email: string; password: string }) {
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookies = cookiesOf(csrf);
  const callback = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(cookies) },
    body: new URLSearchParams({ ...credentials, csrfToken, callbackUrl: `${origin}/` }),
  });
  await callback.arrayBuffer();
  Object.assign(cookies, cookiesOf(callback));
  const cookie = cookieHeader(cookies);
  const session = await fetch(`${origin}/api/auth/session`, { headers: { cookie } });
  const body = (await session.json()) as { user?: { email?: string } } | null;
  if (body?.user?.email !== credentials.email)
    throw new Error(
      `Signing in as ${credentials.email} failed (${callback.status} ${callback.headers.get("location")}).`,
    );
  return cookie;
}
