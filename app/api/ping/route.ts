import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** Liveness: the process answers. No database, no session, no log line, so probes and load tests cost nothing. */
export function GET() {
  return Response.json({ status: "ok" });
}

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
