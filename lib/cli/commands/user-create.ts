import { createUserInOrganization } from "@/lib/auth/users";
import { hasMembers } from "@/lib/orgs/memberships";
import { getOrganizationBySlug } from "@/lib/orgs/organizations";
import { roleSchema } from "@/lib/orgs/schemas";
import { parseInput } from "@/lib/validation";
import { type CliCommand, requireOption } from "../command";

export const userCreate: CliCommand = {
  name: "user:create",
  usage:
    "user:create --email <email> --password <password> --org <slug> [--name <name>] [--role owner|admin|member] [--superadmin]",
  description:
    "Create a user who can sign in with a password, in an organization: its owner when it has nobody yet, else a member.",
  options: {
    email: { type: "string" },
    password: { type: "string" },
    org: { type: "string" },
    name: { type: "string" },
    role: { type: "string" },
    superadmin: { type: "boolean" },
  },
  async run(db, { values }, io) {
    const email = requireOption(values, "email");
    const password = requireOption(values, "password");
    const org = await getOrganizationBySlug(db, requireOption(values, "org"));
    // An organization made from the CLI gets its owner from its first user, unless --role says otherwise.
    const role = parseInput(roleSchema, values.role ?? ((await hasMembers(db, org.id)) ? "member" : "owner"));
    const user = await createUserInOrganization(db, {
      email,
      password,
      name: values.name,
      orgId: org.id,
      role,
      superadmin: values.superadmin === true,
    });
    io.print(`Created ${user.email} as ${role} of ${org.slug}${user.isSuperadmin ? " (superadmin)" : ""}.`, {
      id: user.id,
      email: user.email,
      organization: org.slug,
      role,
      superadmin: user.isSuperadmin,
    });
  },
};
