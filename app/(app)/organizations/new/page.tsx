import type { Metadata } from "next";
import { CreateOrganizationForm } from "@/components/forms/create-organization-form";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";

export const metadata: Metadata = { title: "New organization" };

export default function NewOrganizationPage() {
  return (
    <div className="grid max-w-lg gap-6">
      <h1 className="text-2xl font-semibold">New organization</h1>
      <Card className="grid gap-4">
        <div>
          <CardTitle>Another organization</CardTitle>
          <CardDescription>
            Each organization has its own integrations, members and settings. You become its owner and can
            switch between organizations from the menu.
          </CardDescription>
        </div>
        <CreateOrganizationForm />
      </Card>
    </div>
  );
}
