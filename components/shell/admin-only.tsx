import { PageMessage } from "./page-message";

/**
 * What a member sees on a page only owners and admins may use: why, in the app's shell, with the way back,
 * rather than being sent elsewhere without a word.
 */
export function AdminOnly({ what, back }: { what: string; back: { href: string; label: string } }) {
  return (
    <PageMessage
      title="Only owners and admins can do this"
      links={[back, { href: "/", label: "Go to the overview" }]}
    >
      {what} is for the organization&apos;s owners and admins. Ask one of them if you need it.
    </PageMessage>
  );
}
