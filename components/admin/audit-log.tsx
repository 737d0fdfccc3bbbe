"use client";

import { useState } from "react";
import { cn } from "@/lib/cn";
import { AuditChange } from "./audit-change";
import { StatTable } from "./stat-table";

export interface AuditLogRow {
  id: number;
  occurredAt: string;
  action: string;
  targetName: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  actorEmail: string | null;
  actorKey: string | null;
}

/**
 * The audit log with its filter by kind, filtered in the page: choosing a kind keeps the place on the page (a
 * link would load it again at the top), and the address keeps the choice for sharing.
 */
export function AuditLog({
  rows,
  kinds,
  initialKind,
}: {
  rows: AuditLogRow[];
  kinds: readonly string[];
  initialKind: string | undefined;
}) {
  const [kind, setKind] = useState(kinds.find((k) => k === initialKind));
  const shown = kind ? rows.filter((row) => row.action.startsWith(`${kind}.`)) : rows;
  const choose = (next: string | undefined) => {
    setKind(next);
    const url = new URL(window.location.href);
    if (next) url.searchParams.set("audit", next);
    else url.searchParams.delete("audit");
    window.history.replaceState(window.history.state, "", url);
  };
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold" id="audit">
          Audit log
        </h2>
        <fieldset className="flex flex-wrap gap-1 text-xs">
          <legend className="sr-only">Audit filter</legend>
          {[undefined, ...kinds].map((option) => (
            <button
              key={option ?? "all"}
              type="button"
              onClick={() => choose(option)}
              aria-pressed={option === kind}
              className={cn(
                "rounded-full border px-2 py-0.5",
                option === kind ? "bg-muted font-medium" : "hover:bg-muted",
              )}
            >
              {option ? option.replace("_", " ") : "all"}
            </button>
          ))}
        </fieldset>
      </div>
      <StatTable
        caption="Changes in this range, newest first"
        rows={shown}
        rowKey={(row) => String(row.id)}
        empty={kind ? `No ${kind.replace("_", " ")} changes in this range.` : "No changes in this range."}
        columns={[
          { label: "When", cell: (row) => row.occurredAt.replace("T", " ").slice(0, 16) },
          {
            label: "Who",
            cell: (row) => row.actorEmail ?? (row.actorKey ? `key ${row.actorKey}` : "operator"),
          },
          { label: "What", cell: (row) => <code className="text-xs">{row.action}</code> },
          { label: "Target", cell: (row) => row.targetName ?? "—" },
          { label: "Change", cell: (row) => <AuditChange before={row.before} after={row.after} /> },
        ]}
      />
    </>
  );
}
