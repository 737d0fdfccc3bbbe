import type { Metadata } from "next";
import { PageMessage } from "@/components/shell/page-message";

export const metadata: Metadata = { title: "Not found" };

/** An address the app does not have. */
export default function NotFound() {
  return (
    <main className="p-4">
      <PageMessage title="This page does not exist" links={[{ href: "/", label: "Go to Switchboard" }]}>
        The address may be mistyped, or the page may have moved.
      </PageMessage>
    </main>
  );
}
