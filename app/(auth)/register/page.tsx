import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/nextauth";
import { RegisterForm } from "./register-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function RegisterPage() {
  if ((await auth())?.userId) redirect("/");
  return (
    <div className="grid gap-5">
      <RegisterForm
        heading={
          <div>
            <h1 className="text-xl font-semibold">Create an account</h1>
            <p className="mt-1 text-sm text-muted-foreground">
              You get an organization of your own to connect MCP servers to.
            </p>
          </div>
        }
      />
      <p className="text-center text-sm text-muted-foreground">
        Already have an account?{" "}
        <Link href="/login" className="font-medium text-primary underline underline-offset-2">
          Sign in
        </Link>
      </p>
    </div>
  );
}
