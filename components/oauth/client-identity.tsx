import { Badge } from "@/components/ui/badge";
import type { ClientView } from "@/lib/oauth-server/clients";

/**
 * Who a client says it is: its logo and name, and how it told us (registered itself here, or a metadata document
 * published at a host, which says who stands behind it).
 */
export function ClientIdentity({ client }: { client: ClientView }) {
  const publisher = client.documentUrl ? new URL(client.documentUrl).host : null;
  return (
    <div className="flex min-w-0 items-center gap-3">
      {client.logoUri ? (
        // biome-ignore lint/performance/noImgElement: a client's own logo, from its host; not optimizable by Next
        <img
          src={client.logoUri}
          alt=""
          width={40}
          height={40}
          referrerPolicy="no-referrer"
          className="h-10 w-10 shrink-0 rounded-md border object-contain"
        />
      ) : (
        <div
          aria-hidden
          className="grid h-10 w-10 shrink-0 place-items-center rounded-md border bg-muted font-semibold"
        >
          {client.name.slice(0, 1).toUpperCase()}
        </div>
      )}
      <div className="grid min-w-0 gap-1">
        <span className="truncate font-medium">{client.name}</span>
        <span className="flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
          {publisher ? (
            <>
              <Badge>Metadata document</Badge> published by <span className="break-all">{publisher}</span>
            </>
          ) : (
            <>
              <Badge>Registered itself</Badge> the name is the app&apos;s own claim
            </>
          )}
        </span>
      </div>
    </div>
  );
}
