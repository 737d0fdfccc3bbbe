import type { Metadata } from "next";
import { PageMessage } from "@/components/shell/page-message";

export const metadata: Metadata = { title: "Not found" };

/** An unknown or deleted item of the organization, inside the app's shell. */
export default function AppNotFound() {
  return (
    <PageMessage
      title="This page does not exist"
      links={[
        { href: "/", label: "Go to the overview" },
        { href: "/chat", label: "Open the chat" },
      ]}
    >
      It may have been deleted, belong to another organization, or the link may be mistyped.
    </PageMessage>
  );
}
