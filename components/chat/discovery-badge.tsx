import Link from "next/link";
import type { ConversationDiscovery } from "@/lib/chat/conversations";
import { cn } from "@/lib/cn";
import { plural } from "@/lib/plural";

type Entry = ConversationDiscovery["integrations"][number];

const tones = {
  ok: "border-success/40 bg-success/10 text-success",
  waiting: "border-border bg-muted text-muted-foreground",
  failed: "border-destructive/40 bg-destructive/10 text-destructive",
};

/** How one integration came into the conversation, in words: answered, late, slow, or failed and why. */
export function DiscoveryBadge({ integration: i }: { integration: Entry }) {
  if (i.status !== "pending" && i.status !== "failed") {
    const tools = plural(i.toolCount, "tool");
    const text =
      i.status === "stale"
        ? `${i.name}: slow to answer, using its last known ${tools}`
        : i.late
          ? `${i.name}: ${tools}, answered late and joined from the next message`
          : `${i.name}: ${tools}`;
    return (
      <span
        className={cn("rounded-full border px-2 py-0.5", i.status === "stale" ? tones.waiting : tones.ok)}
      >
        {text}
      </span>
    );
  }
  if (i.status === "pending")
    return (
      <span className={cn("rounded-full border px-2 py-0.5", tones.waiting)} role="status">
        {i.name}: not answering yet; its tools join when it does
      </span>
    );
  if (i.status !== "failed") return null;
  return (
    <span className={cn("rounded-full border px-2 py-0.5", tones.failed)} role="status">
      {i.name} unavailable: {i.message}
      {i.errorType.includes("mcp_oauth") ? (
        <>
          {" "}
          <Link href={`/integrations/${i.integrationId}`} className="font-medium underline">
            Connect
          </Link>
        </>
      ) : null}
    </span>
  );
}
