import type { Metadata } from "next";
import { PageMessage } from "@/components/shell/page-message";

export const metadata: Metadata = { title: "Not found" };

/** A deleted, mistyped or someone else's conversation: said beside the sidebar, which leads to the others. */
export default function ConversationNotFound() {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto p-4 md:p-8">
      <PageMessage
        title="This conversation does not exist"
        links={[{ href: "/chat", label: "Open the chat" }]}
      >
        It may have been deleted, belong to another organization or person, or the link may be mistyped.
      </PageMessage>
    </div>
  );
}
