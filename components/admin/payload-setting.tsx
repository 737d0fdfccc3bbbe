"use client";

import { useState, useTransition } from "react";
import { setRecordToolPayloadsAction } from "@/app/(app)/admin/actions";

/** The organization's choice to keep tool calls' arguments and results in its usage records. */
export function PayloadSetting({ enabled }: { enabled: boolean }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  return (
    <div className="grid gap-1">
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-1"
          defaultChecked={enabled}
          disabled={pending}
          onChange={(event) => {
            const next = event.target.checked;
            startTransition(async () => setError((await setRecordToolPayloadsAction(next)).error));
          }}
        />
        <span>
          Keep tool arguments and results
          <span className="block text-xs text-muted-foreground">
            Off: only who called which tool, the outcome and latency are kept. On: arguments and results too,
            with secrets redacted and large values cut.
          </span>
        </span>
      </label>
      {error ? <p className="text-xs text-destructive">{error}</p> : null}
    </div>
  );
}
